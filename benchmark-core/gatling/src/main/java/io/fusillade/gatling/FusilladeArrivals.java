package io.fusillade.gatling;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;

import io.gatling.core.action.Action;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.CoreDsl;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An open workload whose arrivals are sent by a few long-lived virtual users, the lanes, instead of
 * one Gatling virtual user per arrival: each lane keeps a timer on its event loop and, at each
 * arrival's due time, runs the chain for it without waiting for the previous arrival's response.
 * The load is the same as {@code constantUsersPerSec}, ramps and holds would make, and latency
 * counts from each arrival's due time ({@link DueTime}), or from when it was sent if that was
 * earlier (a lane sends up to a millisecond ahead, see {@link ArrivalLane}), so an event loop too
 * busy to send on time is charged to the requests it delayed. What it saves is a virtual user's
 * life per request: the session made and, at its end, the message that Gatling's injector receives
 * on a thread of its own, one thread wake-up per request, a quarter of the injector's CPU per
 * request at 2,000/s on two cores.
 *
 * <pre>{@code
 * FusilladeArrivals arrivals = FusilladeArrivals.of(List.of(Segment.constant(2000, Duration.ofSeconds(60))));
 * setUp(arrivals.population("point selects", exec(sqlCall(...)))).protocols(sql);
 * }</pre>
 *
 * <p>What a chain may hold: its first action is a Fusillade request (the one the due time is given
 * to); each arrival's session is a copy of its lane's, so what a request saves in it is not seen by
 * the next (each arrival is a new user in an open model) and the user id is the lane's; and it must
 * not end the user itself ({@code exitHere}, {@code exitHereIfFailed}: that would end the lane's
 * user while its arrivals go on). Inject the scenario with {@link #injection()}, which starts
 * exactly its lanes. The run ends when every lane has sent its arrivals and their responses are in,
 * or when the run is stopped.
 *
 * <p>{@code run.json}'s {@code injection} shows the scenario as the rate and ramp steps it stands
 * for, as if Gatling had injected it.
 */
public final class FusilladeArrivals {
  /** The session attribute of an arrival's lane; arrivals leave the scenario when done. */
  static final String LANE_ATTRIBUTE = "fusillade.arrival.lane";

  /** The session attribute of a lane that has sent its arrivals: it leaves. */
  static final String DONE_ATTRIBUTE = "fusillade.arrival.done";

  // by scenario name: what run.json records as the scenario's injection (InjectionProfiles)
  private static final Map<String, List<ArrivalSchedule.Segment>> PROFILES =
      new ConcurrentHashMap<>();

  private final ArrivalSchedule schedule;
  private final int lanes;

  private FusilladeArrivals(ArrivalSchedule schedule, int lanes) {
    this.schedule = schedule;
    this.lanes = lanes;
  }

  /**
   * The arrivals of these segments, one after the other, over as many lanes as the JVM has
   * processors (Gatling's event loops).
   */
  public static FusilladeArrivals of(List<ArrivalSchedule.Segment> segments) {
    return new FusilladeArrivals(
        new ArrivalSchedule(segments), Runtime.getRuntime().availableProcessors());
  }

  /** The same arrivals over {@code count} lanes (each sends every count-th arrival). */
  public FusilladeArrivals lanes(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("lanes must be 1 or more: " + count);
    }
    return new FusilladeArrivals(schedule, count);
  }

  /** The schedule. */
  public ArrivalSchedule schedule() {
    return schedule;
  }

  /**
   * The scenario {@code name}: its lanes send the arrivals, each arrival running {@code chain}.
   * Inject it with {@link #injection()}, or use {@link #population}.
   */
  public ScenarioBuilder scenario(String name, ChainBuilder chain) {
    DueTime.active = true;
    PROFILES.put(name, schedule.segments());
    Shared shared = new Shared();
    ActionBuilder send =
        () ->
            new io.gatling.core.action.builder.ActionBuilder() {
              @Override
              public Action build(ScenarioContext ctx, Action next) {
                return new ArrivalLane.Start(schedule, lanes, shared, next);
              }
            };
    ActionBuilder leave =
        () ->
            new io.gatling.core.action.builder.ActionBuilder() {
              @Override
              public Action build(ScenarioContext ctx, Action next) {
                return new ArrivalLane.Leave(next);
              }
            };
    return CoreDsl.scenario(name)
        .exec(send)
        .exitHereIf(session -> session.contains(DONE_ATTRIBUTE))
        .exec(chain)
        .exec(leave);
  }

  /** The injection of the scenario: its lanes, all at once. */
  public OpenInjectionStep injection() {
    return atOnceUsers(lanes);
  }

  /** {@link #scenario} injected with {@link #injection()}. */
  public PopulationBuilder population(String name, ChainBuilder chain) {
    return scenario(name, chain).injectOpen(injection());
  }

  /**
   * The open injection steps that Gatling would run for the arrivals of the scenario {@code name},
   * or null when no {@code FusilladeArrivals} made it.
   */
  static List<io.gatling.core.controller.inject.open.OpenInjectionStep> gatlingSteps(String name) {
    List<ArrivalSchedule.Segment> segments = PROFILES.get(name);
    if (segments == null) {
      return null;
    }
    List<io.gatling.core.controller.inject.open.OpenInjectionStep> steps = new ArrayList<>();
    for (ArrivalSchedule.Segment s : segments) {
      steps.add(
          s.from() == s.to()
              ? CoreDsl.constantUsersPerSec(s.from()).during(s.length()).asScala()
              : CoreDsl.rampUsersPerSec(s.from()).to(s.to()).during(s.length()).asScala());
    }
    return steps;
  }

  /** What the lanes of one scenario share: their start and their numbers. */
  static final class Shared {
    private boolean started;
    private long start;
    private int lanes;

    /** The schedule's start on the nanoTime clock: when the first lane began. */
    synchronized long start() {
      if (!started) {
        started = true;
        start = System.nanoTime();
      }
      return start;
    }

    /** The next lane's number, from 0. */
    synchronized int nextLane() {
      return lanes++;
    }
  }
}
