package io.fusillade.gatling;

import static io.gatling.javaapi.core.CoreDsl.exec;

import io.fusillade.limit.AdaptiveSettings;
import io.fusillade.limit.AdaptiveWatch;
import io.fusillade.limit.LimitWatch;
import io.fusillade.record.RunRecorder;
import io.gatling.core.action.Action;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A run whose arrival rate follows the system's capacity, from a simulation: every second the last
 * window of the live record is judged against the objectives and an AIMD controller ({@link
 * io.fusillade.limit.AdaptiveController}) sets the next rate, never past the injector's own health.
 * The rate it settled at, second by second and per minute, is the {@value #PARAMETER} parameter of
 * {@code run.json}, shown by {@code fusillade summary}, {@code report} and {@code trend}.
 *
 * <pre>{@code
 * FusilladeAdaptive adaptive = FusilladeAdaptive.follow().start(100).slo("p99 < 20ms", "errors < 1%")
 *     .duration(Duration.ofMinutes(30));
 * setUp(adaptive.population("point selects", exec(sqlCall(...)))).protocols(sql);
 * }</pre>
 *
 * <p>Every value is immutable: each method returns a new run. A population built by {@link
 * #population} runs one controller.
 */
public final class FusilladeAdaptive {
  /** The run.json parameter that holds the settings and, at the end, the curve. */
  public static final String PARAMETER = "adaptive";

  private final AdaptiveSettings settings;

  private FusilladeAdaptive(AdaptiveSettings settings) {
    this.settings = settings;
  }

  /** An adaptive run with the defaults of {@link AdaptiveSettings#DEFAULTS}. */
  public static FusilladeAdaptive follow() {
    return new FusilladeAdaptive(AdaptiveSettings.DEFAULTS);
  }

  /** An adaptive run with these settings. */
  public static FusilladeAdaptive follow(AdaptiveSettings settings) {
    return new FusilladeAdaptive(settings);
  }

  /** The settings. */
  public AdaptiveSettings settings() {
    return settings;
  }

  /** The first rate, per second. */
  public FusilladeAdaptive start(double perSecond) {
    return new FusilladeAdaptive(settings.withStart(perSecond));
  }

  /** The lowest and highest rates, per second. */
  public FusilladeAdaptive bounds(double min, double max) {
    return new FusilladeAdaptive(settings.withBounds(min, max));
  }

  /** How long the run lasts. */
  public FusilladeAdaptive duration(Duration length) {
    return new FusilladeAdaptive(settings.withDuration(length));
  }

  /** The objectives held, as the run checks are written ({@code "p99 < 20ms"}). */
  public FusilladeAdaptive slo(String... objectives) {
    return new FusilladeAdaptive(settings.withSlo(List.of(objectives)));
  }

  /** How many requests may be in flight at once. */
  public FusilladeAdaptive lanes(int count) {
    return new FusilladeAdaptive(settings.withLanes(count));
  }

  /**
   * The scenario {@code name}: the lanes of {@link FusilladeArrivals} send its arrivals, each
   * running {@code chain}, at the rate the controller sets, for the run's duration.
   */
  public ScenarioBuilder scenario(String name, ChainBuilder chain) {
    FusilladeRun.parameters(Map.of(PARAMETER, settings.toMap()));
    FusilladeArrivals arrivals = arrivals();
    ArrivalLanes lanes = arrivals.newLanes(name);
    LimitPacer pacer = new LimitPacer(lanes);
    AtomicBoolean installed = new AtomicBoolean();
    ActionBuilder watch =
        () ->
            new io.gatling.core.action.builder.ActionBuilder() {
              @Override
              public Action build(ScenarioContext ctx, Action next) {
                if (installed.compareAndSet(false, true)) {
                  install(pacer, FusilladeRun.recorder(ctx.coreComponents()));
                }
                return next;
              }
            };
    return arrivals.scenario(name, exec(watch).exec(chain), lanes);
  }

  /** The arrivals: the first rate, the bound of requests in flight (as a limit search's). */
  private FusilladeArrivals arrivals() {
    return FusilladeArrivals.searching(settings.start(), settings.lanes());
  }

  /** The injection of the scenario: its lanes, all at once. */
  public io.gatling.javaapi.core.OpenInjectionStep injection() {
    return arrivals().injection();
  }

  /** {@link #scenario} injected with {@link #injection()}. */
  public PopulationBuilder population(String name, ChainBuilder chain) {
    return scenario(name, chain).injectOpen(injection());
  }

  private void install(LimitPacer pacer, RunRecorder run) {
    pacer.lagInto(run.metric(LimitWatch.PACE_LAG));
    double threshold = FusilladeRun.lagThreshold().toNanos() / 1e6;
    AdaptiveWatch watch = new AdaptiveWatch(settings, run, pacer, threshold);
    run.listen(watch);
    run.onFinish(() -> run.parameter(PARAMETER, watch.toMap()));
    FusilladeRun.closeAtEnd(pacer);
  }
}
