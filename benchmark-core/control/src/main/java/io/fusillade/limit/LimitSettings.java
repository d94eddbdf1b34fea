package io.fusillade.limit;

import io.fusillade.record.SettingValues;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a search for the maximum sustainable rate runs ({@link LimitSearch}): where it starts, how it
 * grows, how long each step lasts and how much of it is left out as warm-up, when it stops, and the
 * objectives a step must meet ({@link LimitSlo}).
 *
 * @param from the first rate tried, requests per second
 * @param max the highest rate tried: a system that sustains it is reported as "at least max"
 * @param growth the factor between two rates of the ramp (2: each step doubles)
 * @param step how long each step lasts
 * @param warmUp the share of each step left out of its verdict (the system settling at the new
 *     rate, the backlog of a failed step draining)
 * @param resolution the search stops when the first failing rate is within this share above the
 *     last passing one (0.05: 5%)
 * @param confirm how long the confirmation step at the found rate lasts
 * @param slo the objectives, as texts (see {@link LimitSlo#parse})
 * @param lanes how many requests may be in flight at once (virtual users that take the due arrivals
 *     in turn); a request that finds every lane busy waits for one, and its latency counts from
 *     when it was due
 * @param maxSteps the most steps a search takes, the confirmation included
 * @param chain the idle step before the search and the step at a share of its result after it
 *     ({@code fusillade limit --then-latency-at}), or null for the search alone
 */
public record LimitSettings(
    double from,
    double max,
    double growth,
    Duration step,
    double warmUp,
    double resolution,
    Duration confirm,
    List<String> slo,
    int lanes,
    int maxSteps,
    LimitChain chain) {

  /** The objectives when none are given. */
  public static final List<String> DEFAULT_SLO =
      List.of("errors < 1%", "rate >= 95% of target", "latency not growing", LimitSlo.DEFAULT_KNEE);

  /** The defaults: from 100/s doubling, 30 s steps with 20% warm-up, 5% resolution. */
  public static final LimitSettings DEFAULTS =
      new LimitSettings(
          100,
          1_000_000,
          2,
          Duration.ofSeconds(30),
          0.2,
          0.05,
          Duration.ofSeconds(30),
          DEFAULT_SLO,
          1000,
          40,
          null);

  /** The prefix of the system properties that carry the settings to a forked run. */
  public static final String PROPERTY_PREFIX = "fusillade.limit.";

  /**
   * The system property that makes a workload's runner search the limit instead of running its
   * fixed load ({@code fusillade limit}).
   */
  public static final String SEARCH_PROPERTY = PROPERTY_PREFIX + "search";

  /** Whether this JVM runs a limit search ({@value #SEARCH_PROPERTY} is true). */
  public static boolean searching() {
    return Boolean.getBoolean(SEARCH_PROPERTY);
  }

  /**
   * @throws IllegalArgumentException naming the setting when a value is out of its range
   */
  public LimitSettings {
    slo = List.copyOf(slo);
    require(from > 0, "from", "must be above 0: " + from);
    require(max >= from, "max", "must be at least from (" + from + "): " + max);
    require(growth > 1, "growth", "must be above 1: " + growth);
    require(step.toMillis() >= 3000, "step", "must be at least 3s: " + step);
    require(warmUp >= 0 && warmUp < 0.8, "warm-up", "must be at least 0% and below 80%");
    require(resolution > 0 && resolution < 1, "resolution", "must be above 0% and below 100%");
    require(confirm.toMillis() >= 3000, "confirm", "must be at least 3s: " + confirm);
    require(lanes >= 1, "lanes", "must be at least 1: " + lanes);
    require(maxSteps >= 2, "max-steps", "must be at least 2: " + maxSteps);
    LimitSlo.parse(slo); // throws naming the objective
  }

  /** A search alone, chained with nothing. */
  public LimitSettings(
      double from,
      double max,
      double growth,
      Duration step,
      double warmUp,
      double resolution,
      Duration confirm,
      List<String> slo,
      int lanes,
      int maxSteps) {
    this(from, max, growth, step, warmUp, resolution, confirm, slo, lanes, maxSteps, null);
  }

  private static void require(boolean ok, String name, String message) {
    if (!ok) {
      throw new IllegalArgumentException("limit " + name + " " + message);
    }
  }

  /** The objectives, read. */
  public LimitSlo objectives() {
    return LimitSlo.parse(slo);
  }

  /** Whole seconds of a normal step (the record flushes once a second). */
  public int stepSeconds() {
    return (int) Math.max(3, Math.round(step.toMillis() / 1000.0));
  }

  /** Whole seconds of the confirmation step. */
  public int confirmSeconds() {
    return (int) Math.max(3, Math.round(confirm.toMillis() / 1000.0));
  }

  /** The seconds of a step of {@code seconds} that are judged: those after its warm-up. */
  public int judgedSeconds(int seconds) {
    return seconds - warmUpSeconds(seconds);
  }

  /**
   * The shortest step, in whole seconds, whose judged seconds are enough to judge the latency's
   * trend within it ({@code latency not growing}: {@value StepStats#MIN_TREND_SECONDS} or more).
   */
  public int shortestStepForTrend() {
    int seconds = 3;
    while (judgedSeconds(seconds) < StepStats.MIN_TREND_SECONDS) {
      seconds++;
    }
    return seconds;
  }

  /** The seconds of a step of {@code seconds} left out of its verdict: at least one. */
  public int warmUpSeconds(int seconds) {
    return (int) Math.min(seconds - 2, Math.max(1, Math.ceil(seconds * warmUp)));
  }

  /**
   * The settings the system properties {@code fusillade.limit.from}, {@code .max}, {@code .growth},
   * {@code .step}, {@code .warmUp}, {@code .resolution}, {@code .confirm}, {@code .lanes}, {@code
   * .maxSteps} and {@code .slo} (one objective a line) give, over {@code base}.
   */
  public static LimitSettings fromProperties(SettingValues values, LimitSettings base) {
    String slo = values.string(PROPERTY_PREFIX + "slo", null);
    List<String> objectives = base.slo();
    if (slo != null) {
      objectives = new ArrayList<>();
      for (String line : slo.split("\n")) {
        if (!line.isBlank()) {
          objectives.add(line.strip());
        }
      }
    }
    Duration step = values.duration(PROPERTY_PREFIX + "step", base.step());
    return new LimitSettings(
        values.number(PROPERTY_PREFIX + "from", base.from()),
        values.number(PROPERTY_PREFIX + "max", base.max()),
        values.number(PROPERTY_PREFIX + "growth", base.growth()),
        step,
        values.number(PROPERTY_PREFIX + "warmUp", base.warmUp()),
        values.number(PROPERTY_PREFIX + "resolution", base.resolution()),
        values.duration(
            PROPERTY_PREFIX + "confirm",
            base.confirm().equals(base.step()) ? step : base.confirm()),
        objectives,
        values.integer(PROPERTY_PREFIX + "lanes", base.lanes()),
        values.integer(PROPERTY_PREFIX + "maxSteps", base.maxSteps()),
        base.chain()); // no property: a chain is carried by the run plan only
  }

  /** The system properties that give these settings to a forked run ({@link #fromProperties}). */
  public Map<String, String> toProperties() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(PROPERTY_PREFIX + "from", Double.toString(from));
    p.put(PROPERTY_PREFIX + "max", Double.toString(max));
    p.put(PROPERTY_PREFIX + "growth", Double.toString(growth));
    p.put(PROPERTY_PREFIX + "step", SettingValues.formatDuration(step));
    p.put(PROPERTY_PREFIX + "warmUp", Double.toString(warmUp));
    p.put(PROPERTY_PREFIX + "resolution", Double.toString(resolution));
    p.put(PROPERTY_PREFIX + "confirm", SettingValues.formatDuration(confirm));
    p.put(PROPERTY_PREFIX + "slo", String.join("\n", slo));
    p.put(PROPERTY_PREFIX + "lanes", Integer.toString(lanes));
    p.put(PROPERTY_PREFIX + "maxSteps", Integer.toString(maxSteps));
    return p;
  }

  /** The settings as {@code run.json} records them. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("from", from);
    m.put("max", max);
    m.put("growth", growth);
    m.put("stepSeconds", stepSeconds());
    m.put("warmUp", warmUp);
    m.put("resolution", resolution);
    m.put("confirmSeconds", confirmSeconds());
    m.put("slo", slo);
    m.put("lanes", lanes);
    if (chain != null) {
      m.put("chain", chain.toMap());
    }
    return m;
  }

  /** A copy starting at {@code rate}. */
  public LimitSettings withFrom(double rate) {
    return new LimitSettings(
        rate,
        Math.max(max, rate),
        growth,
        step,
        warmUp,
        resolution,
        confirm,
        slo,
        lanes,
        maxSteps,
        chain);
  }

  /** A copy trying at most {@code rate} per second. */
  public LimitSettings withMax(double rate) {
    return new LimitSettings(
        from, rate, growth, step, warmUp, resolution, confirm, slo, lanes, maxSteps, chain);
  }

  /** A copy whose confirmation lasts {@code length}. */
  public LimitSettings withConfirm(Duration length) {
    return new LimitSettings(
        from, max, growth, step, warmUp, resolution, length, slo, lanes, maxSteps, chain);
  }

  /** A copy leaving {@code share} of each step out of its verdict. */
  public LimitSettings withWarmUp(double share) {
    return new LimitSettings(
        from, max, growth, step, share, resolution, confirm, slo, lanes, maxSteps, chain);
  }

  /** A copy stopping at {@code share}. */
  public LimitSettings withResolution(double share) {
    return new LimitSettings(
        from, max, growth, step, warmUp, share, confirm, slo, lanes, maxSteps, chain);
  }

  /** A copy with steps (and confirmation) of {@code length}. */
  public LimitSettings withStep(Duration length) {
    return new LimitSettings(
        from, max, growth, length, warmUp, resolution, length, slo, lanes, maxSteps, chain);
  }

  /** A copy with these objectives. */
  public LimitSettings withSlo(List<String> objectives) {
    return new LimitSettings(
        from, max, growth, step, warmUp, resolution, confirm, objectives, lanes, maxSteps, chain);
  }

  /** A copy chained with an idle step before and a step at a share of the rate found after. */
  public LimitSettings withChain(LimitChain value) {
    return new LimitSettings(
        from, max, growth, step, warmUp, resolution, confirm, slo, lanes, maxSteps, value);
  }

  /** A copy with {@code count} lanes. */
  public LimitSettings withLanes(int count) {
    return new LimitSettings(
        from, max, growth, step, warmUp, resolution, confirm, slo, count, maxSteps, chain);
  }
}
