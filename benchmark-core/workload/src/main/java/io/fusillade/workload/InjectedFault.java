package io.fusillade.workload;

import java.util.List;

/**
 * Requests mixed into a workload to fail on purpose (fault injection), so that a run shows how the
 * system and its good requests fare beside them. Each is sent as request {@code injected <kind>}
 * ({@link io.fusillade.record.Injected}), left out of the error and latency checks unless a check
 * names it.
 *
 * @param kind what fails, one of {@link #SQL_KINDS} (the statements are {@code
 *     io.fusillade.gatling.sql.SqlFaults}')
 * @param share the share of the arrivals sent as this kind instead of a workload query, 0 to 0.5
 */
public record InjectedFault(String kind, double share) {
  /** A statement PostgreSQL cannot parse (SQLState 42601). */
  public static final String SYNTAX_ERROR = "syntax error";

  /** An insert of a key that exists (SQLState 23505), into a table Fusillade creates. */
  public static final String CONSTRAINT_VIOLATION = "constraint violation";

  /** A statement that runs past its timeout (SQLState 57014), in a transaction of its own. */
  public static final String STATEMENT_TIMEOUT = "statement timeout";

  /** The kinds of an SQL workload. */
  public static final List<String> SQL_KINDS =
      List.of(SYNTAX_ERROR, CONSTRAINT_VIOLATION, STATEMENT_TIMEOUT);

  /** Checks the share. */
  public InjectedFault {
    if (!(share > 0) || share > 0.5) {
      throw new IllegalArgumentException(
          "the share of injected requests is above 0% and at most 50%, got " + share * 100 + "%");
    }
  }
}
