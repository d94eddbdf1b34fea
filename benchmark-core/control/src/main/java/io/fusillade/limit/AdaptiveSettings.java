package io.fusillade.limit;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How an adaptive run ({@code fusillade run --mode adaptive}, {@code FusilladeAdaptive}) steers its
 * arrival rate: where it starts, its bounds, the controller's steps ({@link AdaptiveController})
 * and the objectives it holds ({@link LimitSlo}, as the limit search writes them).
 *
 * @param start the first rate, requests per second
 * @param min the lowest rate the controller goes down to
 * @param max the highest rate it goes up to
 * @param increase the share by which the rate grows in a second while every objective holds (0.1:
 *     10%)
 * @param decrease the factor applied to the rate the system served when an objective fails (0.95)
 * @param window how many of the last seconds each judgement is made on
 * @param duration how long the run lasts
 * @param slo the objectives, as texts (see {@link LimitSlo#parse})
 * @param lanes how many requests may be in flight at once; an arrival that finds every lane busy
 *     waits for one, its latency counted from when it was due
 */
public record AdaptiveSettings(
    double start,
    double min,
    double max,
    double increase,
    double decrease,
    Duration window,
    Duration duration,
    List<String> slo,
    int lanes) {

  /**
   * The defaults: from 100/s, between 1/s and 1,000,000/s, 10% up a second, 0.95 of the served rate
   * down, 2 s windows, 10 minutes, the limit search's objectives, 1000 lanes.
   */
  public static final AdaptiveSettings DEFAULTS =
      new AdaptiveSettings(
          100,
          1,
          1_000_000,
          0.10,
          0.95,
          Duration.ofSeconds(2),
          Duration.ofMinutes(10),
          LimitSettings.DEFAULT_SLO,
          1000);

  /**
   * @throws IllegalArgumentException naming the setting when a value is out of its range
   */
  public AdaptiveSettings {
    slo = List.copyOf(slo);
    require(min > 0, "min", "must be above 0: " + min);
    require(max >= min, "max", "must be at least min (" + min + "): " + max);
    require(start >= min && start <= max, "start", "must be between min and max: " + start);
    require(
        increase > 0 && increase <= 1,
        "increase",
        "must be above 0% and at most 100%: " + increase);
    require(decrease >= 0.5 && decrease < 1, "decrease", "must be at least 0.5 and below 1");
    require(
        window.toMillis() >= 1000 && window.toMillis() <= 60_000,
        "window",
        "must be between 1s and 60s: " + window);
    require(duration.toMillis() >= 5000, "duration", "must be at least 5s: " + duration);
    require(lanes >= 1, "lanes", "must be at least 1: " + lanes);
    LimitSlo.parse(slo); // throws naming the objective
  }

  private static void require(boolean ok, String name, String message) {
    if (!ok) {
      throw new IllegalArgumentException("adaptive " + name + " " + message);
    }
  }

  /** The objectives, read. */
  public LimitSlo objectives() {
    return LimitSlo.parse(slo);
  }

  /** Whole seconds of a window (the record flushes once a second). */
  public int windowSeconds() {
    return (int) Math.max(1, Math.round(window.toMillis() / 1000.0));
  }

  /** Whole seconds of the run. */
  public int durationSeconds() {
    return (int) Math.max(5, Math.round(duration.toMillis() / 1000.0));
  }

  /** The settings as {@code run.json} records them. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("start", start);
    m.put("min", min);
    m.put("max", max);
    m.put("increase", increase);
    m.put("decrease", decrease);
    m.put("windowSeconds", windowSeconds());
    m.put("durationSeconds", durationSeconds());
    m.put("slo", slo);
    m.put("lanes", lanes);
    return m;
  }

  /** A copy starting at {@code rate} (the bounds widened to hold it). */
  public AdaptiveSettings withStart(double rate) {
    return new AdaptiveSettings(
        rate,
        Math.min(min, rate),
        Math.max(max, rate),
        increase,
        decrease,
        window,
        duration,
        slo,
        lanes);
  }

  /** A copy between {@code low} and {@code high} per second (the start kept within them). */
  public AdaptiveSettings withBounds(double low, double high) {
    return new AdaptiveSettings(
        Math.min(high, Math.max(low, start)),
        low,
        high,
        increase,
        decrease,
        window,
        duration,
        slo,
        lanes);
  }

  /** A copy lasting {@code length}. */
  public AdaptiveSettings withDuration(Duration length) {
    return new AdaptiveSettings(start, min, max, increase, decrease, window, length, slo, lanes);
  }

  /** A copy with these objectives. */
  public AdaptiveSettings withSlo(List<String> objectives) {
    return new AdaptiveSettings(
        start, min, max, increase, decrease, window, duration, objectives, lanes);
  }

  /** A copy with {@code count} lanes. */
  public AdaptiveSettings withLanes(int count) {
    return new AdaptiveSettings(start, min, max, increase, decrease, window, duration, slo, count);
  }

  /** A copy with these steps: {@code up} a second while the objectives hold, {@code down}. */
  public AdaptiveSettings withSteps(double up, double down) {
    return new AdaptiveSettings(start, min, max, up, down, window, duration, slo, lanes);
  }

  /** A copy judging windows of {@code length}. */
  public AdaptiveSettings withWindow(Duration length) {
    return new AdaptiveSettings(start, min, max, increase, decrease, length, duration, slo, lanes);
  }
}
