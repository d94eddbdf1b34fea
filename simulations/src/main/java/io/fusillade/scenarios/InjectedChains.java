package io.fusillade.scenarios;

import static io.gatling.javaapi.core.CoreDsl.doSwitch;
import static io.gatling.javaapi.core.CoreDsl.doSwitchOrElse;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.onCase;

import io.fusillade.workload.InjectedFault;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Choice;
import java.util.List;
import java.util.function.Function;

/**
 * A workload's {@code injected} requests mixed into its own requests' chain: each arrival draws
 * ({@link InjectedDraw}) whether it sends an injected kind, and which.
 *
 * @param faults the kinds
 * @param draw their draw
 * @param request the request of a kind (the protocol's {@code injected(kind)})
 */
public record InjectedChains(
    List<InjectedFault> faults, InjectedDraw draw, Function<String, ActionBuilder> request) {
  /** The session key of the arrival's drawn kind, empty for the workload's request. */
  private static final String KIND = "fusillade.injected";

  /** Nothing injected. */
  public static final InjectedChains NONE =
      new InjectedChains(List.of(), new InjectedDraw(List.of(), 0), kind -> null);

  /**
   * A workload's kinds, drawn with the run's seed.
   *
   * @param faults the workload's {@code injected} list
   * @param seed the run's seed
   * @param request the request of a kind
   * @return the chains' maker
   */
  public static InjectedChains of(
      List<InjectedFault> faults, long seed, Function<String, ActionBuilder> request) {
    return new InjectedChains(faults, new InjectedDraw(faults, seed), request);
  }

  /**
   * An arrival sends the drawn kind instead of the workload's request, so that the arrival rate
   * stays the target.
   *
   * @param own the workload's request
   * @return the chain of one arrival
   */
  public ChainBuilder instead(ChainBuilder own) {
    if (draw.isEmpty()) {
      return own;
    }
    return exec(session -> session.set(KIND, kind()))
        .exec(doSwitchOrElse(session -> session.getString(KIND)).on(cases()).orElse(own));
  }

  /**
   * The drawn kind goes before the workload's request, which is always sent (an exact number of
   * documents, a queue).
   *
   * @param own the workload's request
   * @return the chain of one turn
   */
  public ChainBuilder besides(ChainBuilder own) {
    if (draw.isEmpty()) {
      return own;
    }
    return exec(session -> session.set(KIND, kind()))
        .exec(doSwitch(session -> session.getString(KIND)).on(cases()))
        .exec(own);
  }

  private String kind() {
    InjectedFault fault = draw.next();
    return fault == null ? "" : fault.kind();
  }

  private List<Choice.WithKey> cases() {
    return faults.stream()
        .map(InjectedFault::kind)
        .distinct()
        .map(kind -> onCase(kind).then(exec(request.apply(kind))))
        .toList();
  }
}
