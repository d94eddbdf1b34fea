package io.fusillade.gatling.sql;

import io.fusillade.record.Injected;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Statements that fail on purpose on PostgreSQL (fault injection), each sent as request {@code
 * injected <kind>} ({@link Injected}): the run's error and latency checks, its abort rules and a
 * limit search leave them out unless a check names them, and the report shows them beside the good
 * requests. Mix them into a scenario by share:
 *
 * <pre>{@code
 * randomSwitch().on(
 *     percent(1).then(exec(SqlDsl.injected(SqlFaults.SYNTAX_ERROR))),
 *     percent(99).then(exec(sql("by id").query("select ... where id = $1", "#{id}"))))
 * }</pre>
 *
 * A workload file says the same with {@code injected: [{kind: syntax error, share: 1%}]}.
 */
public final class SqlFaults {
  /** A statement PostgreSQL cannot parse: SQLState 42601. */
  public static final String SYNTAX_ERROR = "syntax error";

  /** The insert of a key that exists into {@value #TABLE}: SQLState 23505. */
  public static final String CONSTRAINT_VIOLATION = "constraint violation";

  /**
   * {@code pg_sleep(1)} in a transaction whose {@code SET LOCAL statement_timeout} is 100 ms:
   * SQLState 57014; the setting ends with the transaction, never reaching the connection's next
   * query.
   */
  public static final String STATEMENT_TIMEOUT = "statement timeout";

  /** Every kind. */
  public static final List<String> KINDS =
      List.of(SYNTAX_ERROR, CONSTRAINT_VIOLATION, STATEMENT_TIMEOUT);

  /** The table the constraint violations are made on, with its one row: see {@link #prepare}. */
  public static final String TABLE = "fusillade_injected";

  private SqlFaults() {}

  /**
   * The request of a kind.
   *
   * @param kind one of {@link #KINDS}
   * @return the call, named {@code injected <kind>}
   * @throws IllegalArgumentException for another kind
   */
  public static SqlCall call(String kind) {
    String name = Injected.name(kind);
    return switch (kind) {
      case SYNTAX_ERROR -> new SqlCall(name, "selec 1 from " + TABLE, List.of());
      case CONSTRAINT_VIOLATION ->
          new SqlCall(name, "insert into " + TABLE + " (id) values (1)", List.of());
      case STATEMENT_TIMEOUT ->
          SqlCall.transaction(name, "set local statement_timeout = 100", "select pg_sleep(1)");
      default ->
          throw new IllegalArgumentException(
              "no injected kind \"" + kind + "\": one of " + String.join(", ", KINDS));
    };
  }

  /**
   * What the kinds need before the load: the table of the constraint violations with its row.
   *
   * @param kinds the kinds a run injects
   * @return the statements (none when no constraint violation is injected)
   */
  public static List<String> setUp(List<String> kinds) {
    if (!kinds.contains(CONSTRAINT_VIOLATION)) {
      return List.of();
    }
    return List.of(
        "create table if not exists " + TABLE + " (id integer primary key)",
        "insert into " + TABLE + " (id) values (1) on conflict do nothing");
  }

  /**
   * Runs {@link #setUp} on a connection, before the load.
   *
   * @param connection a connection to the database under test
   * @param kinds the kinds the run injects
   * @throws SQLException when the database refuses
   */
  public static void prepare(Connection connection, List<String> kinds) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String sql : setUp(kinds)) {
        statement.execute(sql);
      }
    }
  }
}
