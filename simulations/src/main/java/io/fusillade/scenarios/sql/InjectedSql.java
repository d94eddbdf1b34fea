package io.fusillade.scenarios.sql;

import io.fusillade.gatling.sql.SqlCall;
import io.fusillade.gen.Rng;
import io.fusillade.gen.Seeds;
import io.fusillade.record.Injected;
import io.fusillade.workload.InjectedFault;
import java.util.ArrayList;
import java.util.List;

/**
 * The erroneous statements a workload mixes into its queries ({@code injected:}), each sent as
 * request {@code injected <kind>} in its share of the arrivals. Drawn from a seeded stream of its
 * own, so that the workload's queries keep their order and values with or without injection.
 *
 * <ul>
 *   <li>{@code syntax error}: a statement PostgreSQL cannot parse (SQLState 42601);
 *   <li>{@code constraint violation}: the insert of a key that exists into {@value #TABLE}, which
 *       the run creates with that one row (SQLState 23505);
 *   <li>{@code statement timeout}: {@code pg_sleep(1)} in a transaction whose {@code SET LOCAL
 *       statement_timeout} is 100 ms (SQLState 57014), the setting gone with the transaction.
 * </ul>
 */
final class InjectedSql {
  /** The table a constraint violation is made on. */
  static final String TABLE = "fusillade_injected";

  private final List<InjectedFault> faults;
  private final double[] cumulative;
  private final Rng rng;

  InjectedSql(List<InjectedFault> faults, long seed) {
    this.faults = List.copyOf(faults);
    this.cumulative = new double[faults.size()];
    double sum = 0;
    for (int i = 0; i < faults.size(); i++) {
      sum += faults.get(i).share();
      cumulative[i] = sum;
    }
    this.rng = new Rng(Seeds.stream(seed, "fusillade", "injected"));
  }

  /** The next arrival's injected statement, or null when it is one of the workload's queries. */
  synchronized SqlCall next() {
    if (faults.isEmpty()) {
      return null;
    }
    double u = rng.nextDouble();
    for (int i = 0; i < cumulative.length; i++) {
      if (u < cumulative[i]) {
        return call(faults.get(i).kind());
      }
    }
    return null;
  }

  /** The statement of a kind. */
  static SqlCall call(String kind) {
    String name = Injected.name(kind);
    return switch (kind) {
      case InjectedFault.SYNTAX_ERROR -> new SqlCall(name, "selec 1 from " + TABLE, List.of());
      case InjectedFault.CONSTRAINT_VIOLATION ->
          new SqlCall(name, "insert into " + TABLE + " (id) values (1)", List.of());
      case InjectedFault.STATEMENT_TIMEOUT ->
          SqlCall.transaction(name, "set local statement_timeout = 100", "select pg_sleep(1)");
      default -> throw new IllegalArgumentException("no injected kind \"" + kind + "\"");
    };
  }

  /** What the run must create first: the table of the constraint violations, with its one row. */
  static List<String> setUp(List<InjectedFault> faults) {
    List<String> statements = new ArrayList<>();
    if (faults.stream().anyMatch(f -> f.kind().equals(InjectedFault.CONSTRAINT_VIOLATION))) {
      statements.add("create table if not exists " + TABLE + " (id integer primary key)");
      statements.add("insert into " + TABLE + " (id) values (1) on conflict do nothing");
    }
    return statements;
  }
}
