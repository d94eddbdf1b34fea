package io.fusillade.reports.runs;

import io.fusillade.record.Injected;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.HdrHistogram.AbstractHistogram;

/**
 * The workload's own requests (those not {@linkplain Injected#is injected to fail}) before, during
 * and after the requests injected to fail, so that what the bad requests did to the good ones reads
 * side by side when the injection covers only part of the run.
 *
 * <p>The <b>injection</b> lasts from the first to the last second in which any injected request was
 * sent ({@link RunData#sentPerSecond()}; for a name whose record counts nothing sent, the seconds
 * in which it completed), gaps included: a small share of a modest rate leaves seconds without one.
 * Second {@code i} of the run covers {@code (i, i + 1]} seconds from its start (a last second cut
 * short ends where the run ended), so an injection in seconds 20 to 29 lasts from 20 s to 30 s. The
 * periods are:
 *
 * <ul>
 *   <li>{@value #BEFORE}: from the run's start to the injection's;
 *   <li>{@value #DURING}: the injection;
 *   <li>{@value #AFTER}: from the injection's end to the run's.
 * </ul>
 *
 * <p>Each holds the good requests that completed in its seconds: their count and KOs ({@link
 * RunData#completedPerSecond()}, {@link RunData#koPerSecond()}) and the p50 and p99 of their
 * latency, OK and KO together ({@link RunData#goodLatencies}: 1% resolution). A {@value #BEFORE} or
 * {@value #AFTER} period without seconds, or in which no good request completed (a run idle before
 * its first request), is left out: there is nothing to compare with. The {@value #DURING} one is
 * always there, as it also says when the injection was.
 *
 * @param period {@value #BEFORE}, {@value #DURING} or {@value #AFTER}
 * @param fromSeconds its start, seconds from the run's start
 * @param toSeconds its end
 * @param requests the good requests completed in it (OK and KO)
 * @param ko those that failed
 * @param koPercent {@code ko} as a percentage of {@code requests} ({@code NaN} without any)
 * @param p50Ms the good requests' median latency, ms ({@code NaN} when the hlog holds none)
 * @param p99Ms their 99th percentile, ms ({@code NaN} when the hlog holds none)
 */
public record InjectionPeriods(
    String period,
    double fromSeconds,
    double toSeconds,
    long requests,
    long ko,
    double koPercent,
    double p50Ms,
    double p99Ms) {

  /** The period before the first injected request. */
  public static final String BEFORE = "before";

  /** The period from the first to the last injected request. */
  public static final String DURING = "during";

  /** The period after the last injected request. */
  public static final String AFTER = "after";

  /**
   * The periods of a run, in time order.
   *
   * @param run the run
   * @return {@value #BEFORE} and {@value #AFTER} when they have seconds with good requests, and
   *     {@value #DURING}; empty when the run sent no injected request
   */
  public static List<InjectionPeriods> of(RunData run) {
    int[] span = injectedSeconds(run);
    if (span == null) {
      return List.of();
    }
    int first = span[0];
    int last = span[1];
    List<InjectionPeriods> periods = new ArrayList<>();
    add(periods, run, BEFORE, 0, first, false);
    add(periods, run, DURING, first, last + 1, true);
    add(periods, run, AFTER, last + 1, run.seconds(), false);
    return List.copyOf(periods);
  }

  /**
   * Whether the injection left part of the run out: a {@value #BEFORE} or an {@value #AFTER} period
   * to compare the {@value #DURING} one with.
   *
   * @param periods a run's periods ({@link #of})
   * @return false when there are none or the injection covers all the seconds with good requests
   */
  public static boolean windowed(List<InjectionPeriods> periods) {
    return periods.stream().anyMatch(p -> !p.period.equals(DURING));
  }

  /**
   * The injection itself: its {@value #DURING} period.
   *
   * @param periods a run's periods ({@link #of})
   * @return empty when the run sent no injected request
   */
  public static Optional<InjectionPeriods> during(List<InjectionPeriods> periods) {
    return periods.stream().filter(p -> p.period.equals(DURING)).findFirst();
  }

  /**
   * The period's seconds as the report prints them.
   *
   * @return e.g. {@code 0–20 s}, {@code 20–30.5 s}
   */
  public String secondsText() {
    return TimeBands.compact(fromSeconds) + "–" + TimeBands.compact(toSeconds) + " s";
  }

  /** The first and last second with an injected request sent, or null when there is none. */
  private static int[] injectedSeconds(RunData run) {
    TreeSet<String> names = new TreeSet<>(run.completedPerSecond().keySet());
    names.addAll(run.sentPerSecond().keySet());
    int first = Integer.MAX_VALUE;
    int last = -1;
    for (String name : names) {
      if (!Injected.is(name)) {
        continue;
      }
      long[] series = run.sentPerSecond().get(name);
      if (series == null || sum(series) == 0) {
        series = run.completedPerSecond().get(name); // a record that counts nothing sent
      }
      for (int i = 0; series != null && i < series.length; i++) {
        if (series[i] > 0) {
          first = Math.min(first, i);
          last = Math.max(last, i);
        }
      }
    }
    return last < 0 ? null : new int[] {first, last};
  }

  /**
   * Adds the period of the seconds with indexes {@code [from, to)}, when it has some and, unless
   * {@code always}, good requests completed in it: from second {@code from}'s start to second
   * {@code to - 1}'s end.
   */
  private static void add(
      List<InjectionPeriods> periods, RunData run, String name, int from, int to, boolean always) {
    if (to <= from) {
      return;
    }
    long requests = goodSum(run.completedPerSecond(), from, to);
    if (requests == 0 && !always) {
      return;
    }
    long ko = goodSum(run.koPerSecond(), from, to);
    AbstractHistogram latencies = run.goodLatencies(from, to);
    boolean timed = latencies.getTotalCount() > 0;
    periods.add(
        new InjectionPeriods(
            name,
            from,
            run.secondEnds()[to - 1], // the run's last second may be cut short
            requests,
            ko,
            requests == 0 ? Double.NaN : 100.0 * ko / requests,
            timed ? latencies.getValueAtPercentile(50) / 1000.0 : Double.NaN,
            timed ? latencies.getValueAtPercentile(99) / 1000.0 : Double.NaN));
  }

  private static long goodSum(Map<String, long[]> perSecond, int from, int to) {
    long total = 0;
    for (Map.Entry<String, long[]> e : perSecond.entrySet()) {
      if (Injected.is(e.getKey())) {
        continue;
      }
      long[] s = e.getValue();
      for (int i = from; i < Math.min(to, s.length); i++) {
        total += s[i];
      }
    }
    return total;
  }

  private static long sum(long[] series) {
    long total = 0;
    for (long v : series) {
      total += v;
    }
    return total;
  }
}
