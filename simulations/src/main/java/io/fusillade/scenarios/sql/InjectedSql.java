package io.fusillade.scenarios.sql;

import io.fusillade.gatling.InjectorShare;
import io.fusillade.gatling.sql.SqlCall;
import io.fusillade.gatling.sql.SqlFaults;
import io.fusillade.scenarios.InjectedDraw;
import io.fusillade.workload.InjectedFault;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The erroneous statements a workload mixes into its queries ({@code injected:}), each sent as
 * request {@code injected <kind>} in its share of the arrivals ({@link InjectedDraw}: seeded, in
 * the kind's window).
 *
 * <p>The statements are those of {@link SqlFaults}, which a simulation in Java uses alike.
 */
final class InjectedSql {
  private final InjectedDraw draw;
  private final InjectorShare share = InjectorShare.current();

  InjectedSql(List<InjectedFault> faults, long seed) {
    this(faults, seed, System::nanoTime);
  }

  InjectedSql(List<InjectedFault> faults, long seed, LongSupplier nanoTime) {
    this.draw = new InjectedDraw(faults, seed, nanoTime);
  }

  /** The next arrival's injected statement, or null when it is one of the workload's queries. */
  SqlCall next() {
    InjectedFault fault = draw.next();
    if (fault == null) {
      return null;
    }
    if (SqlFaults.DEADLOCK.equals(fault.kind())) {
      return SqlFaults.nextDeadlockHalf(share.count(), share.index()); // the halves in turn
    }
    return call(fault.kind());
  }

  /** The statement of a kind ({@link SqlFaults}); a deadlock's first half. */
  static SqlCall call(String kind) {
    return SqlFaults.DEADLOCK.equals(kind) ? SqlFaults.deadlockHalf(0) : SqlFaults.call(kind);
  }

  /** What the run must create first: the tables of the constraint violations and deadlocks. */
  static List<String> setUp(List<InjectedFault> faults) {
    return SqlFaults.setUp(faults.stream().map(InjectedFault::kind).toList());
  }
}
