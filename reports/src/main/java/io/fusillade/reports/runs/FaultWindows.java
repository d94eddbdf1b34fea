package io.fusillade.reports.runs;

import io.fusillade.fault.FaultSchedule;
import io.fusillade.record.Injected;
import io.fusillade.record.RunEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The faults scheduled during a run ({@code fault-start} and {@code fault-end} events, written by
 * the run's fault schedule) as time windows, each with how long the good requests took to recover
 * from it.
 *
 * <p><b>Recovery</b> is measured on the requests not injected to fail, second by second, against
 * their own range before the fault. The range is the worst second of the (up to) {@value
 * #BEFORE_SECONDS} seconds before the fault began, with requests: its error rate (at least {@value
 * #ERROR_FLOOR_PERCENT}%, so that one stray error of a clean run is no lasting fault) and its OK
 * p99 of the worst request name; the seconds of earlier faults and of their recoveries are left
 * out. Recovery ends at the start of the first run of {@value #STEADY_SECONDS} seconds within that
 * range after the fault ended (a kill without a length ends when the server is killed), or of the
 * in-range seconds that reach the next fault; it is counted from that end. A run that never gets
 * back into range before its end or the next fault is not recovered ({@code NaN}), nor is a fault
 * with fewer than {@value #STEADY_SECONDS} seconds of requests before it (nothing to compare with).
 *
 * @param label the fault, e.g. {@code kill broker 1} (the text without its time)
 * @param fromSeconds when it began, seconds from the run's start
 * @param toSeconds when it was over; the end of the run when the record has no end
 * @param outcome the end event's detail ({@code paused, resumed}, {@code exit 0: ...}), or empty
 * @param recoverySeconds seconds from its end until the good requests were back in range, or NaN
 * @param recoveryNote why there is no recovery time, or empty
 * @param stalledFromSeconds when the first request not injected to fail began a stall after the
 *     fault began (see {@link #failoverSeconds()}), or NaN when none stalled
 * @param stalledToSeconds when the last stalled request ended, or NaN
 */
public record FaultWindows(
    String label,
    double fromSeconds,
    double toSeconds,
    String outcome,
    double recoverySeconds,
    String recoveryNote,
    double stalledFromSeconds,
    double stalledToSeconds) {

  /**
   * The shortest wait that counts as a stall, ms: a request (not injected to fail) waiting longer
   * than this and than {@value #STALL_FACTOR} times the worst OK p99 of the seconds before the
   * fault was stalled, not slow.
   */
  public static final double STALL_FLOOR_MS = 1_000;

  /** How many times the worst p99 before the fault a wait must be to count as a stall. */
  public static final double STALL_FACTOR = 5;

  /** The seconds before a fault whose worst values make its normal range. */
  public static final int BEFORE_SECONDS = 30;

  /** The seconds in a row within the range that make a recovery. */
  public static final int STEADY_SECONDS = 3;

  /** Why a fault early in a run has no recovery time. */
  static final String NO_RANGE = "fewer than " + STEADY_SECONDS + " seconds of requests before it";

  /** The lowest error rate of the normal range, percent. */
  public static final double ERROR_FLOOR_PERCENT = 1.0;

  /** Whether the run's events hold faults. */
  public static boolean isFaultEvent(String kind) {
    return FaultSchedule.START.equals(kind) || FaultSchedule.END.equals(kind);
  }

  /**
   * The run's faults, in the order they began. Several injectors record the same faults: a fault's
   * start is the earliest, its end the latest of theirs.
   *
   * @param run the run
   * @return one window per fault
   */
  public static List<FaultWindows> of(RunData run) {
    long start = run.startEpochMs();
    Map<String, double[]> windows = new LinkedHashMap<>(); // label#n -> from, to
    Map<String, String> outcomes = new LinkedHashMap<>();
    Map<String, Integer> begun = new LinkedHashMap<>();
    Map<String, Integer> ended = new LinkedHashMap<>();
    for (RunEvent event : run.events()) {
      double at = event.secondsFrom(start);
      if (FaultSchedule.START.equals(event.kind())) {
        int n = begun.merge(event.target(), 1, Integer::sum);
        windows.putIfAbsent(event.target() + "#" + n, new double[] {at, Double.NaN});
      } else if (FaultSchedule.END.equals(event.kind())) {
        int n = ended.merge(event.target(), 1, Integer::sum);
        double[] window = windows.get(event.target() + "#" + n);
        if (window != null) {
          window[1] = Double.isNaN(window[1]) ? at : Math.max(window[1], at);
          outcomes.put(event.target() + "#" + n, event.detail());
        }
      }
    }
    List<FaultWindows> faults = new ArrayList<>();
    Seconds seconds = Seconds.of(run);
    List<String> keys = new ArrayList<>(windows.keySet());
    List<double[]> spans = new ArrayList<>();
    for (double[] window : windows.values()) {
      boolean open = Double.isNaN(window[1]);
      spans.add(
          new double[] {window[0], open ? Math.max(window[0], run.durationSeconds()) : window[1]});
    }
    for (int f = 0; f < keys.size(); f++) {
      String key = keys.get(f);
      double[] span = spans.get(f);
      // the range before a fault leaves out the earlier faults and their recoveries (up to this
      // one when they had none); its own recovery ends at the next fault
      boolean[] excluded = new boolean[seconds.any().length];
      for (FaultWindows earlier : faults) {
        double until =
            earlier.recovery().isPresent()
                ? earlier.toSeconds() + earlier.recoverySeconds()
                : earlier.recoveryNote().equals(NO_RANGE) ? earlier.toSeconds() : span[0];
        for (int i = (int) Math.floor(earlier.fromSeconds());
            i < Math.min(excluded.length, Math.ceil(until));
            i++) {
          excluded[i] = true;
        }
      }
      double next = Double.POSITIVE_INFINITY;
      String nextLabel = "";
      for (int g = f + 1; g < spans.size(); g++) {
        double[] other = spans.get(g);
        if (other[0] < next) {
          next = other[0];
          nextLabel = keys.get(g).substring(0, keys.get(g).lastIndexOf('#'));
        }
      }
      double[] recovery = seconds.recovery(span[0], span[1], excluded, next);
      double[] stall = seconds.stall(span[0], excluded, next);
      String note = "";
      if (Double.isNaN(recovery[0])) {
        note =
            recovery[1] < 0
                ? NO_RANGE
                : Double.isInfinite(next)
                    ? "not back in range by the end of the run"
                    : String.format(
                        java.util.Locale.ROOT,
                        "not back in range before the next fault (%s at %+.1f s)",
                        nextLabel,
                        next);
      }
      faults.add(
          new FaultWindows(
              key.substring(0, key.lastIndexOf('#')),
              span[0],
              span[1],
              outcomes.getOrDefault(key, ""),
              recovery[0],
              note,
              stall[0],
              stall[1]));
    }
    return List.copyOf(faults);
  }

  /**
   * The good requests' error rate, worst OK p99 and longest wait (OK or KO, ms), second by second.
   */
  private record Seconds(double[] errorPercent, double[] p99, double[] max, boolean[] any) {
    static Seconds of(RunData run) {
      int n = run.seconds();
      long[] completed = new long[n];
      long[] ko = new long[n];
      double[] p99 = new double[n];
      java.util.Arrays.fill(p99, Double.NaN);
      run.completedPerSecond()
          .forEach(
              (name, counts) -> {
                if (!Injected.is(name)) {
                  add(completed, counts);
                }
              });
      run.koPerSecond()
          .forEach(
              (name, counts) -> {
                if (!Injected.is(name)) {
                  add(ko, counts);
                }
              });
      run.okP99PerSecond()
          .forEach(
              (name, values) -> {
                if (!Injected.is(name)) {
                  for (int i = 0; i < Math.min(n, values.length); i++) {
                    if (!Double.isNaN(values[i]) && values[i] > 0) {
                      p99[i] = Double.isNaN(p99[i]) ? values[i] : Math.max(p99[i], values[i]);
                    }
                  }
                }
              });
      double[] errors = new double[n];
      boolean[] any = new boolean[n];
      double[] max = new double[n];
      for (int i = 0; i < n; i++) {
        any[i] = completed[i] > 0;
        errors[i] = any[i] ? 100.0 * ko[i] / completed[i] : 0;
        max[i] = any[i] ? run.goodLatencies(i, i + 1).getMaxValue() / 1000.0 : 0;
      }
      return new Seconds(errors, p99, max, any);
    }

    private static void add(long[] into, long[] counts) {
      for (int i = 0; i < Math.min(into.length, counts.length); i++) {
        into[i] += counts[i];
      }
    }

    /**
     * The range before a fault beginning at {@code from}: {worst error %, worst OK p99 ms, seconds
     * counted}, the {@code excluded} seconds left out.
     */
    double[] range(double from, boolean[] excluded) {
      int first = (int) Math.floor(from); // the second the fault began in is not "before"
      double errorLimit = ERROR_FLOOR_PERCENT;
      double p99Limit = 0;
      int counted = 0;
      for (int i = Math.min(first, any.length) - 1; i >= 0 && counted < BEFORE_SECONDS; i--) {
        if (any[i] && !excluded[i]) {
          counted++;
          errorLimit = Math.max(errorLimit, errorPercent[i]);
          if (!Double.isNaN(p99[i])) {
            p99Limit = Math.max(p99Limit, p99[i]);
          }
        }
      }
      return new double[] {errorLimit, p99Limit, counted};
    }

    /**
     * {first, last} stalled second after a fault beginning at {@code from}, up to the next fault: a
     * request that ended in second {@code i} after waiting {@code L} was stalled from {@code i + 1
     * - L} (it ended by {@code i + 1}) to {@code i + 1}, when {@code L} is over the stall
     * threshold; {NaN, NaN} when none was.
     */
    double[] stall(double from, boolean[] excluded, double next) {
      double threshold = Math.max(STALL_FLOOR_MS, STALL_FACTOR * range(from, excluded)[1]);
      double first = Double.NaN;
      double last = Double.NaN;
      int end = (int) Math.min(any.length, Math.floor(next));
      for (int i = (int) Math.floor(from); i < end; i++) {
        if (!any[i] || max[i] <= threshold) {
          continue;
        }
        double began = Math.max(from, i + 1 - max[i] / 1000.0);
        first = Double.isNaN(first) ? began : Math.min(first, began);
        last = i + 1;
      }
      return new double[] {first, last};
    }

    /**
     * {recovery seconds or NaN, -1 when there was no range before the fault}. The range leaves out
     * the {@code excluded} seconds (earlier faults); the search stops at {@code next} (the next
     * fault's start), where a streak of in-range seconds up to it counts as a recovery.
     */
    double[] recovery(double from, double to, boolean[] excluded, double next) {
      double[] range = range(from, excluded);
      double errorLimit = range[0];
      double p99Limit = range[1];
      int counted = (int) range[2];
      if (counted < STEADY_SECONDS || p99Limit == 0) {
        return new double[] {Double.NaN, -1};
      }
      int steady = 0;
      int streakStart = 0;
      int end = (int) Math.min(any.length, Math.floor(next));
      for (int i = (int) Math.floor(to); i < end; i++) {
        if (!any[i]) {
          continue; // a second without completions says nothing either way
        }
        if (errorPercent[i] > errorLimit || p99[i] > p99Limit) {
          steady = 0;
          continue;
        }
        if (steady++ == 0) {
          streakStart = i;
        }
        if (steady == STEADY_SECONDS) {
          return new double[] {Math.max(0, streakStart - to), 0};
        }
      }
      if (steady > 0 && end < any.length) {
        return new double[] {Math.max(0, streakStart - to), 0}; // cut short by the next fault
      }
      return new double[] {Double.NaN, 0};
    }
  }

  /**
   * Whether this fault is the one {@code name} means: its label, or its label without the length
   * ({@code pause broker 2} for {@code pause broker 2 for 10s}).
   */
  public boolean isNamed(String name) {
    return names(label, name);
  }

  /**
   * Whether a scheduled fault ({@code at 30s pause broker 2 for 10s}) is the one {@code name}
   * means, as {@link #isNamed} judges the faults of a record: before the run.
   */
  public static boolean labelMatches(String faultText, String name) {
    try {
      return names(io.fusillade.fault.Fault.parse(faultText).label(), name);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean names(String label, String name) {
    return label.equals(name) || label.startsWith(name + " for ");
  }

  /** The recovery time, when there is one. */
  public OptionalDouble recovery() {
    return Double.isNaN(recoverySeconds)
        ? OptionalDouble.empty()
        : OptionalDouble.of(recoverySeconds);
  }

  /**
   * The fail-over time: from the first to the last stalled second after the fault began, where a
   * request not injected to fail waited longer than {@value #STALL_FLOOR_MS} ms and {@value
   * #STALL_FACTOR} times the worst OK p99 of the seconds before the fault (a write waiting for a
   * new partition leader, a query for a new primary); empty when none did.
   */
  public OptionalDouble failoverSeconds() {
    return Double.isNaN(stalledFromSeconds)
        ? OptionalDouble.empty()
        : OptionalDouble.of(stalledToSeconds - stalledFromSeconds);
  }

  /** How the report says the fail-over: {@code +4.1 to +13.3 s: 9.2 s}, or {@code no stall}. */
  public String failoverText() {
    return failoverSeconds().isEmpty()
        ? "no stall"
        : String.format(
            java.util.Locale.ROOT,
            "%+.1f to %+.1f s: %.1f s",
            stalledFromSeconds,
            stalledToSeconds,
            failoverSeconds().getAsDouble());
  }

  /** How the report and the console say the recovery: {@code 2.4 s} or the note. */
  public String recoveryText() {
    return Double.isNaN(recoverySeconds)
        ? recoveryNote
        : String.format(java.util.Locale.ROOT, "%.1f s", recoverySeconds);
  }
}
