package io.fusillade.limit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One step of a limit search, judged: the rate it was sent at, what the system did with it, and
 * whether that met the objectives, with the reasons when it did not.
 *
 * @param index its place in the search, from 1
 * @param phase {@code ramp}, {@code bisect} or {@code confirm}
 * @param fromSeconds its start, seconds from the run's start
 * @param toSeconds its end
 * @param target the rate it was sent at, per second
 * @param achieved completed requests per second in its judged seconds
 * @param p50Ms the OK requests' median latency, from when each was due
 * @param p99Ms their 99th percentile
 * @param errorPercent the system's errors, % of the completed requests
 * @param lag the consumer lag's trend, or null when none was measured
 * @param injector why the injector cannot vouch for the step, or null when it can
 * @param why why it failed its objectives (empty when it passed them)
 */
public record StepResult(
    int index,
    String phase,
    double fromSeconds,
    double toSeconds,
    double target,
    double achieved,
    double p50Ms,
    double p99Ms,
    double errorPercent,
    String lag,
    String injector,
    List<String> why) {

  public StepResult {
    why = List.copyOf(why);
  }

  /** Judges {@code measure} against {@code slo}, the knee against the steps {@code before}. */
  static StepResult judge(
      int index,
      String phase,
      double from,
      double to,
      StepMeasure measure,
      LimitSlo slo,
      List<StepResult> before) {
    return new StepResult(
        index,
        phase,
        from,
        to,
        measure.target(),
        measure.achieved(),
        measure.percentileMs(50),
        measure.percentileMs(99),
        measure.errorPercent(),
        measure.lagVerdict(),
        measure.injectorProblem(),
        slo.failures(measure, before));
  }

  /** Whether the step met every objective and the injector vouches for it. */
  public boolean passed() {
    return why.isEmpty() && injector == null;
  }

  /** The verdict in a few words: {@code pass}, {@code fail: p99 62 ms >= 50 ms}... */
  public String verdict() {
    if (injector != null) {
      return "injector: " + injector;
    }
    return why.isEmpty() ? "pass" : "fail: " + String.join(", ", why);
  }

  /** The step as {@code run.json} and {@code summary.json} hold it. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("step", index);
    m.put("phase", phase);
    m.put("fromSeconds", round(fromSeconds));
    m.put("toSeconds", round(toSeconds));
    m.put("rate", round(target));
    m.put("achieved", round(achieved));
    m.put("p50Ms", round(p50Ms));
    m.put("p99Ms", round(p99Ms));
    m.put("errorPercent", round(errorPercent));
    if (lag != null) {
      m.put("lag", lag);
    }
    if (injector != null) {
      m.put("injector", injector);
    }
    m.put("passed", passed());
    m.put("why", why);
    return m;
  }

  /** A step read back from {@link #toMap()}'s form (missing numbers read as 0). */
  public static StepResult fromMap(Map<?, ?> m) {
    return new StepResult(
        (int) num(m.get("step")),
        String.valueOf(m.get("phase")),
        num(m.get("fromSeconds")),
        num(m.get("toSeconds")),
        num(m.get("rate")),
        num(m.get("achieved")),
        num(m.get("p50Ms")),
        num(m.get("p99Ms")),
        num(m.get("errorPercent")),
        m.get("lag") instanceof String s ? s : null,
        m.get("injector") instanceof String s ? s : null,
        m.get("why") instanceof List<?> list
            ? list.stream().map(String::valueOf).toList()
            : List.of());
  }

  private static double num(Object o) {
    return o instanceof Number n ? n.doubleValue() : 0;
  }

  private static double round(double value) {
    return Math.round(value * 1000) / 1000.0;
  }

  /** A rate for people: {@code 1,250}, {@code 87.5}. */
  public static String rate(double perSecond) {
    return perSecond >= 100 ? String.format(Locale.ROOT, "%,.0f", perSecond) : number(perSecond);
  }

  /** A number with at most three significant decimals: {@code 12.3}, {@code 0.512}, {@code 40}. */
  public static String number(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return String.format(Locale.ROOT, "%d", (long) value);
    }
    double abs = Math.abs(value);
    String format = abs >= 100 ? "%.0f" : abs >= 10 ? "%.1f" : abs >= 1 ? "%.2f" : "%.3f";
    return String.format(Locale.ROOT, format, value);
  }
}
