package io.fusillade.scenarios.logs;

import static io.gatling.javaapi.core.CoreDsl.doSwitch;
import static io.gatling.javaapi.core.CoreDsl.doSwitchOrElse;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.onCase;

import io.fusillade.gatling.logs.LogsDsl;
import io.fusillade.scenarios.InjectedDraw;
import io.fusillade.workload.InjectedFault;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Choice;
import java.util.List;

/**
 * A logs workload's {@code injected} bulks ({@link io.fusillade.gatling.logs.LogsFaults}) mixed
 * into its own: each arrival draws ({@link InjectedDraw}) whether it sends an injected kind.
 */
final class InjectedBulks {
  /** The session key of the arrival's drawn kind, empty for the workload's bulk. */
  private static final String KIND = "fusillade.injected";

  private InjectedBulks() {}

  /**
   * An arrival sends the drawn kind instead of the workload's bulk, so that the arrival rate stays
   * the target (rate, steps and stages).
   */
  static ChainBuilder instead(ChainBuilder bulk, InjectedDraw draw, List<InjectedFault> faults) {
    if (draw.isEmpty()) {
      return bulk;
    }
    return exec(session -> session.set(KIND, kind(draw)))
        .exec(doSwitchOrElse(session -> session.getString(KIND)).on(cases(faults)).orElse(bulk));
  }

  /** The drawn kind goes before the bulk, and every bulk is still sent (an exact {@code docs}). */
  static ChainBuilder besides(ChainBuilder bulk, InjectedDraw draw, List<InjectedFault> faults) {
    if (draw.isEmpty()) {
      return bulk;
    }
    return exec(session -> session.set(KIND, kind(draw)))
        .exec(doSwitch(session -> session.getString(KIND)).on(cases(faults)))
        .exec(bulk);
  }

  private static String kind(InjectedDraw draw) {
    InjectedFault fault = draw.next();
    return fault == null ? "" : fault.kind();
  }

  private static List<Choice.WithKey> cases(List<InjectedFault> faults) {
    return faults.stream()
        .map(InjectedFault::kind)
        .distinct()
        .map(kind -> onCase(kind).then(exec(LogsDsl.injected(kind))))
        .toList();
  }
}
