package io.fusillade.scenarios;

import static io.gatling.javaapi.core.CoreDsl.doSwitch;
import static io.gatling.javaapi.core.CoreDsl.doSwitchOrElse;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.onCase;

import io.fusillade.FusilladeException;
import io.fusillade.gatling.ArrivalSchedule.Segment;
import io.fusillade.gatling.FusilladeArrivals;
import io.fusillade.gatling.InjectorShare;
import io.fusillade.workload.InjectedFault;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Choice;
import io.gatling.javaapi.core.PopulationBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A workload's {@code injected} requests mixed into its own: each arrival draws ({@link
 * InjectedDraw}) whether it sends a kind with a share instead, and which; a kind with a rate is a
 * population of its own ({@link #populations}).
 *
 * @param faults the kinds
 * @param draw their draw
 * @param request the request of a kind (the protocol's {@code injected(kind)})
 * @param share this injector's share of the draws, of several ({@link InjectorShare#ALONE} for one)
 */
public record InjectedChains(
    List<InjectedFault> faults,
    InjectedDraw draw,
    Function<String, ActionBuilder> request,
    InjectorShare share) {
  /** The session key of the arrival's drawn kind, empty for the workload's request. */
  private static final String KIND = "fusillade.injected";

  /** Nothing injected. */
  public static final InjectedChains NONE =
      new InjectedChains(
          List.of(), new InjectedDraw(List.of(), 0), kind -> null, InjectorShare.ALONE);

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
    return of(faults, seed, request, InjectorShare.ALONE);
  }

  /**
   * As {@link #of(List, long, Function)}, for one of several injectors: of the single run's
   * arrivals' draws, it keeps every N-th from its index ({@link InjectorShare#next}).
   */
  public static InjectedChains of(
      List<InjectedFault> faults,
      long seed,
      Function<String, ActionBuilder> request,
      InjectorShare share) {
    return new InjectedChains(faults, new InjectedDraw(faults, seed), request, share);
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

  /**
   * The populations of the kinds at a rate of their own, sent beside the workload's requests by the
   * lanes of {@link FusilladeArrivals}: each kind waits its {@code from}, then arrives at its rate
   * for its {@code for}, or until the load ends.
   *
   * @param file the workload file, for the message of a kind that cannot be timed
   * @param loadLength how long the load lasts, or null when that is not known before the run (queue
   *     mode, an exact number of documents): a kind's {@code for} is cut at its end
   * @return one population per kind at a rate (this injector's part of it), without protocols
   * @throws FusilladeException for a kind without {@code for} when the load's length is unknown, or
   *     one that would begin after the load's end
   */
  public List<PopulationBuilder> populations(String file, Duration loadLength) {
    List<PopulationBuilder> populations = new ArrayList<>();
    for (int i = 0; i < faults.size(); i++) {
      InjectedFault f = faults.get(i);
      if (!f.hasRate()) {
        continue;
      }
      String named = "injected " + f.kind() + " at " + f.rate() + "/s";
      if (loadLength == null && f.length() == null) {
        throw new FusilladeException(
            file + ": " + named + " needs for: here, as the load's length is not known before");
      }
      if (loadLength != null && f.from().compareTo(loadLength) >= 0) {
        throw new FusilladeException(
            file
                + ": "
                + named
                + " from "
                + f.from().toMillis() / 1000.0
                + " s would begin after the load's end, at "
                + loadLength.toMillis() / 1000.0
                + " s");
      }
      Duration length = f.length();
      if (loadLength != null) {
        Duration left = loadLength.minus(f.from());
        length = length == null || length.compareTo(left) > 0 ? left : length;
      }
      List<Segment> segments = new ArrayList<>();
      if (!f.from().isZero()) {
        segments.add(Segment.constant(0, f.from()));
      }
      segments.add(Segment.constant(share.rate(f.rate()), length));
      // Gatling's scenario names must be unique, and a kind may be listed twice
      populations.add(
          FusilladeArrivals.of(segments)
              .population(named + " [" + i + "]", exec(request.apply(f.kind()))));
    }
    return populations;
  }

  private String kind() {
    InjectedFault fault;
    synchronized (draw) { // the N draws of one arrival in a row (InjectedDraw locks on itself)
      fault = share.next(draw::next);
    }
    return fault == null ? "" : fault.kind();
  }

  private List<Choice.WithKey> cases() {
    return faults.stream()
        .filter(f -> !f.hasRate())
        .map(InjectedFault::kind)
        .distinct()
        .map(kind -> onCase(kind).then(exec(request.apply(kind))))
        .toList();
  }
}
