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
 * request at 2,000/s on two cores ({@link ArrivalLane} has the cost model).
 *
 * <p>The one pacer of Fusillade's workload runners: {@code fusillade run} sends every open-model
 * arrival of every protocol this way (SQL's rate mode, a topic's writers, a log ingest's bulks, the
 * injected kinds at a rate of their own), and a limit search ({@link FusilladeLimit}) too, its rate
 * changing as it goes.
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
 * <p>The lanes hold at most {@link #inFlight} arrivals in flight (by default {@value
 * #DEFAULT_IN_FLIGHT_PER_LANE} per lane, a bound on the injector's memory, far above what a
 * protocol's own queue holds): an arrival due when its lane is full is not sent, and each request
 * of its chain is a KO of the injector, {@code injector lane full}; {@code run.json} counts the
 * arrivals (health {@code arrivals <scenario>}: scheduled, sent, refused, unsent) and carries a
 * flag when any was refused. No arrival is dropped unseen.
 *
 * <p>{@code run.json}'s {@code injection} shows the scenario as the rate and ramp steps it stands
 * for, as if Gatling had injected it.
 */
public final class FusilladeArrivals {
  /** The session attribute of an arrival's lane; arrivals leave the scenario when done. */
  static final String LANE_ATTRIBUTE = "fusillade.arrival.lane";

  /** The session attribute of a lane that has sent its arrivals: it leaves. */
  static final String DONE_ATTRIBUTE = "fusillade.arrival.done";

  /**
   * Arrivals a lane holds in flight unless {@link #inFlight} says: 65,536, as a SQL node's default
   * queue (over 3 s of 20,000/s on two lanes).
   */
  public static final int DEFAULT_IN_FLIGHT_PER_LANE = 65_536;

  // by scenario name: what run.json records as the scenario's injection (InjectionProfiles)
  private static final Map<String, List<ArrivalSchedule.Segment>> PROFILES =
      new ConcurrentHashMap<>();

  private final ArrivalSchedule schedule;
  private final int lanes;
  private final int inFlight; // all lanes together; 0: the default per lane
  private final ArrivalLanes.WhenFull whenFull;
  private final boolean open;

  private FusilladeArrivals(
      ArrivalSchedule schedule,
      int lanes,
      int inFlight,
      ArrivalLanes.WhenFull whenFull,
      boolean open) {
    this.schedule = schedule;
    this.lanes = lanes;
    this.inFlight = inFlight;
    this.whenFull = whenFull;
    this.open = open;
  }

  /**
   * The arrivals of these segments, one after the other, over as many lanes as the JVM has
   * processors (Gatling's event loops).
   */
  public static FusilladeArrivals of(List<ArrivalSchedule.Segment> segments) {
    return new FusilladeArrivals(
        new ArrivalSchedule(segments),
        Runtime.getRuntime().availableProcessors(),
        0,
        ArrivalLanes.WhenFull.REFUSE,
        false);
  }

  /**
   * A limit search's arrivals: {@code firstRate} per second until its pacer sets another ({@link
   * LimitPacer}), at most {@code inFlight} at once, an arrival due when its lane is full waiting
   * for room (its wait counted in its latency).
   */
  static FusilladeArrivals searching(double firstRate, int inFlight) {
    return new FusilladeArrivals(
            LimitPacer.schedule(firstRate),
            Runtime.getRuntime().availableProcessors(),
            0,
            ArrivalLanes.WhenFull.WAIT,
            true)
        .inFlight(inFlight);
  }

  /** The same arrivals over {@code count} lanes (each sends every count-th arrival). */
  public FusilladeArrivals lanes(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("lanes must be 1 or more: " + count);
    }
    return new FusilladeArrivals(schedule, count, inFlight, whenFull, open);
  }

  /**
   * The same arrivals, at most {@code max} in flight, all lanes together (each lane holds its
   * share, rounded up): an arrival due when its lane holds its share is refused as the injector's.
   */
  public FusilladeArrivals inFlight(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("in flight must be 1 or more: " + max);
    }
    return new FusilladeArrivals(schedule, lanes, max, whenFull, open);
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
    return scenario(name, chain, newLanes(name));
  }

  /** The lanes of the scenario {@code name}, to build it with. */
  ArrivalLanes newLanes(String name) {
    int most =
        inFlight > 0
            ? inFlight
            : (int) Math.min(Integer.MAX_VALUE, (long) DEFAULT_IN_FLIGHT_PER_LANE * lanes);
    return new ArrivalLanes(name, schedule, lanes, most, whenFull, open);
  }

  /** The scenario {@code name}, sent by {@code shared}. */
  ScenarioBuilder scenario(String name, ChainBuilder chain, ArrivalLanes shared) {
    DueTime.active = true;
    if (!open) {
      PROFILES.put(name, schedule.segments());
    }
    ActionBuilder send =
        () ->
            new io.gatling.core.action.builder.ActionBuilder() {
              @Override
              public Action build(ScenarioContext ctx, Action next) {
                shared.recordInto(FusilladeRun.recorder(ctx.coreComponents()));
                return new ArrivalLane.Start(shared, next);
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
          s.from() == 0 && s.to() == 0
              ? CoreDsl.nothingFor(s.length()).asScala()
              : s.from() == s.to()
                  ? CoreDsl.constantUsersPerSec(s.from()).during(s.length()).asScala()
                  : CoreDsl.rampUsersPerSec(s.from()).to(s.to()).during(s.length()).asScala());
    }
    return steps;
  }
}
