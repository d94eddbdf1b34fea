package io.fusillade.scenarios.sql;

import io.fusillade.gatling.sql.SqlCall;
import io.fusillade.gatling.sql.SqlFaults;
import io.fusillade.gen.Rng;
import io.fusillade.gen.Seeds;
import io.fusillade.workload.InjectedFault;
import java.util.List;

/**
 * The erroneous statements a workload mixes into its queries ({@code injected:}), each sent as
 * request {@code injected <kind>} in its share of the arrivals. Drawn from a seeded stream of its
 * own, so that the workload's queries keep their order and values with or without injection.
 *
 * <p>The statements are those of {@link SqlFaults}, which a simulation in Java uses alike.
 */
final class InjectedSql {
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

  /** The statement of a kind ({@link SqlFaults}). */
  static SqlCall call(String kind) {
    return SqlFaults.call(kind);
  }

  /** What the run must create first: the table of the constraint violations, with its one row. */
  static List<String> setUp(List<InjectedFault> faults) {
    return SqlFaults.setUp(faults.stream().map(InjectedFault::kind).toList());
  }
}
