package io.fusillade.gatling;

import io.fusillade.record.FlushListener;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The run's progress on the console, every {@code period} seconds, from the run record's flushes:
 * what Gatling's console data writer shows, without its cost. Gatling's writer receives every
 * response as an actor message, which wakes a thread of Gatling's pool for almost every request at
 * a few thousand requests a second (1.2 CPU-seconds of a 30 s run at 2,000/s, some 10% of the
 * injector's CPU); this reads the per-second totals that the record computes anyway.
 *
 * <p>One line per request name that moved in the period, and the period's failure reasons:
 *
 * <pre>
 * Fusillade 10 s: point  20,012/s  OK 200,120  KO 0  p99 0.61 ms (last 5 s)
 * Fusillade 10 s:   KO injector queue full × 12 (last 5 s)
 * </pre>
 *
 * Latencies are from the intended start, as everywhere in Fusillade's record. {@code fusillade run}
 * turns it on ({@link FusilladeRun#PROGRESS_PROPERTY}) and Gatling's console writer off.
 */
final class ConsoleProgress implements FlushListener {
  private final PrintStream out;
  private final int periodSeconds;
  private final Map<String, Totals> names = new TreeMap<>();
  private final Map<String, Long> errors = new TreeMap<>();
  private long nextPrint;

  ConsoleProgress(PrintStream out, int periodSeconds) {
    if (periodSeconds < 1) {
      throw new IllegalArgumentException("the period must be at least 1 s: " + periodSeconds);
    }
    this.out = out;
    this.periodSeconds = periodSeconds;
    this.nextPrint = periodSeconds;
  }

  /** A request name's counts: totals since the start, latencies and rate of the period. */
  private static final class Totals {
    long ok;
    long ko;
    long periodCount;
    final Histogram periodOk = new Histogram(3);
  }

  @Override
  public void request(String name, long sent, Histogram ok, Histogram ko, Map<String, Long> errs) {
    Totals totals = names.computeIfAbsent(name, n -> new Totals());
    long okCount = ok.getTotalCount();
    long koCount = ko != null ? ko.getTotalCount() : 0;
    totals.ok += okCount;
    totals.ko += koCount;
    totals.periodCount += okCount + koCount;
    totals.periodOk.add(ok);
    errs.forEach((reason, n) -> errors.merge(reason, n, Long::sum));
  }

  @Override
  public void intervalEnd(long epochMs, double elapsedSeconds) {
    if (elapsedSeconds + 0.5 < nextPrint) {
      return;
    }
    String prefix = String.format(Locale.ROOT, "Fusillade %d s:", Math.round(elapsedSeconds));
    for (Map.Entry<String, Totals> e : names.entrySet()) {
      Totals t = e.getValue();
      if (t.periodCount == 0) {
        continue;
      }
      String p99 =
          t.periodOk.getTotalCount() == 0
              ? "-"
              : milliseconds(t.periodOk.getValueAtPercentile(99) / 1000.0) + " ms";
      out.printf(
          Locale.ROOT,
          "%s %s  %,.0f/s  OK %,d  KO %,d  p99 %s (last %d s)%n",
          prefix,
          e.getKey(),
          t.periodCount / (double) periodSeconds,
          t.ok,
          t.ko,
          p99,
          periodSeconds);
      t.periodCount = 0;
      t.periodOk.reset();
    }
    errors.forEach(
        (reason, n) ->
            out.printf(
                Locale.ROOT, "%s   KO %s × %,d (last %d s)%n", prefix, reason, n, periodSeconds));
    errors.clear();
    out.flush();
    while (nextPrint <= elapsedSeconds + 0.5) {
      nextPrint += periodSeconds;
    }
  }

  /**
   * About three significant digits in plain notation, thousands grouped: {@code 0.300}, {@code
   * 1.50}, {@code 12.3}, {@code 1,110} (never {@code 1.11e+03}, which {@code %.3g} printed).
   */
  static String milliseconds(double ms) {
    double magnitude = Math.abs(ms);
    String format =
        magnitude >= 100 ? "%,.0f" : magnitude >= 10 ? "%.1f" : magnitude >= 1 ? "%.2f" : "%.3f";
    return String.format(Locale.ROOT, format, ms);
  }
}
