package io.fusillade.gatling;

import static io.gatling.javaapi.core.CoreDsl.exec;

import io.fusillade.limit.LimitChainWatch;
import io.fusillade.limit.LimitResult;
import io.fusillade.limit.LimitSettings;
import io.fusillade.limit.LimitWatch;
import io.fusillade.record.RunRecorder;
import io.gatling.core.action.Action;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The search for the maximum sustainable rate, from a simulation: the rate of a scenario's requests
 * rises geometrically until a step fails its objectives, is bisected between the last passing and
 * the first failing rate down to the resolution, and the rate found is confirmed by a step of its
 * own. Each step is judged on the live run record as it ends (see {@link
 * io.fusillade.limit.LimitSearch}), and the whole search is one run record: its steps are events
 * and the {@code limit} parameter of {@code run.json}, shown by {@code fusillade summary}, {@code
 * report} and {@code trend}.
 *
 * <pre>{@code
 * FusilladeLimit limit = FusilladeLimit.search().from(100).step(Duration.ofSeconds(30))
 *     .slo("p99 < 50ms", "errors < 1%");
 * setUp(limit.population("point selects", exec(sqlCall(...)))).protocols(sql);
 * }</pre>
 *
 * <p>Every value is immutable: each method returns a new search. A population built by {@link
 * #population} runs one search.
 */
public final class FusilladeLimit {
  /** The run.json parameter that holds the search's settings and, at the end, its result. */
  public static final String PARAMETER = "limit";

  private final LimitSettings settings;

  private FusilladeLimit(LimitSettings settings) {
    this.settings = settings;
  }

  /** A search with the defaults of {@link LimitSettings#DEFAULTS}. */
  public static FusilladeLimit search() {
    return new FusilladeLimit(LimitSettings.DEFAULTS);
  }

  /** A search with these settings. */
  public static FusilladeLimit search(LimitSettings settings) {
    return new FusilladeLimit(settings);
  }

  /** The settings. */
  public LimitSettings settings() {
    return settings;
  }

  /** The first rate tried, per second. */
  public FusilladeLimit from(double perSecond) {
    return new FusilladeLimit(settings.withFrom(perSecond));
  }

  /** The highest rate tried, per second. */
  public FusilladeLimit max(double perSecond) {
    return new FusilladeLimit(settings.withMax(perSecond));
  }

  /** How long each step lasts (and the confirmation, unless {@link #confirm} says). */
  public FusilladeLimit step(Duration length) {
    return new FusilladeLimit(settings.withStep(length));
  }

  /** How long the confirmation lasts. */
  public FusilladeLimit confirm(Duration length) {
    return new FusilladeLimit(settings.withConfirm(length));
  }

  /** The share of each step left out of its verdict (0.2: its first fifth). */
  public FusilladeLimit warmUp(double share) {
    return new FusilladeLimit(settings.withWarmUp(share));
  }

  /** Where the search stops: the first failing rate within this share above the passing one. */
  public FusilladeLimit resolution(double share) {
    return new FusilladeLimit(settings.withResolution(share));
  }

  /** The objectives of every step, as the run checks are written ({@code "p99 < 50ms"}). */
  public FusilladeLimit slo(String... objectives) {
    return new FusilladeLimit(settings.withSlo(List.of(objectives)));
  }

  /**
   * How many requests may be in flight at once: an arrival due when as many are waits for one to
   * end, its latency counted from its due time.
   */
  public FusilladeLimit lanes(int count) {
    return new FusilladeLimit(settings.withLanes(count));
  }

  /**
   * The scenario {@code name}: the lanes of {@link FusilladeArrivals} send its arrivals, each
   * running {@code chain}, at the rate the search sets, until the search is over. Inject it with
   * {@link #injection()}, or use {@link #population}.
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

  /** The arrivals of the search: its first rate, its bound of requests in flight. */
  private FusilladeArrivals arrivals() {
    // a chained search starts with its idle step's trickle
    double first = settings.chain() != null ? settings.chain().idleRate() : settings.from();
    return FusilladeArrivals.searching(first, settings.lanes());
  }

  /** The injection of a search's scenario: its lanes, all at once. */
  public io.gatling.javaapi.core.OpenInjectionStep injection() {
    return arrivals().injection();
  }

  /** {@link #scenario} injected with {@link #injection()}. */
  public PopulationBuilder population(String name, ChainBuilder chain) {
    return scenario(name, chain).injectOpen(injection());
  }

  /** Watches the run for the search and leaves its result in {@code run.json}. */
  private void install(LimitPacer pacer, RunRecorder run) {
    pacer.lagInto(run.metric(LimitWatch.PACE_LAG));
    double threshold = FusilladeRun.lagThreshold().toNanos() / 1e6;
    if (settings.chain() != null) {
      LimitChainWatch chain =
          new LimitChainWatch(
              settings,
              run,
              pacer,
              threshold,
              result -> System.out.println("Fusillade: limit chain over: " + result.describe()));
      run.listen(chain);
      run.onFinish(
          () -> {
            run.parameter(PARAMETER, recorded(settings, chain.endNow()));
            run.parameter(LimitChainWatch.PARAMETER, chain.toMap());
          });
      FusilladeRun.closeAtEnd(pacer);
      return;
    }
    LimitWatch watch =
        new LimitWatch(
            settings,
            run,
            pacer,
            threshold,
            result -> System.out.println("Fusillade: limit search over: " + result.describe()));
    run.listen(watch);
    run.onFinish(() -> run.parameter(PARAMETER, recorded(settings, watch.endNow())));
    FusilladeRun.closeAtEnd(pacer);
  }

  /** The settings and the result, as {@code run.json}'s {@value #PARAMETER} parameter. */
  static Map<String, Object> recorded(LimitSettings settings, LimitResult result) {
    Map<String, Object> m = new LinkedHashMap<>(settings.toMap());
    m.putAll(result.toMap());
    return m;
  }
}
