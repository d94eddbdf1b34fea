package io.fusillade.reports.runs;

import io.fusillade.record.RunRecord;
import io.fusillade.record.SecondCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The steady-state rate of a run: the one definition every report, summary, check and comparison
 * uses, so that one run never shows two rates.
 *
 * <p>The record counts requests per flush interval ({@code counters.jsonl}, about a second each).
 * The steady state is the run of intervals between the first and the last interval with a non-zero
 * count, those two left out: they are partly before the first request (set-up, connection pools
 * opening) and partly after the last (drain), so they would dilute the rate. Intervals without
 * requests in between count: a stall is part of the rate. The rate divides by the real length of
 * the intervals, measured from their end times, not by their number: a flush that came late (a GC
 * pause, a loaded machine) makes a longer interval, and counting it as one second would inflate the
 * rate.
 */
public final class SteadyRate {
  private SteadyRate() {}

  /**
   * One flush interval of a record.
   *
   * @param startEpochMs its start: the end of the previous interval, or the run's start
   * @param endEpochMs its end
   * @param elapsedSeconds seconds from the start of the run to its end
   * @param count what was counted in it (completions, sends...)
   */
  public record Interval(long startEpochMs, long endEpochMs, double elapsedSeconds, long count) {
    /** Its length in seconds. */
    public double seconds() {
      return (endEpochMs - startEpochMs) / 1000.0;
    }

    /** Its count per second, 0 for an empty interval. */
    public double rate() {
      return endEpochMs > startEpochMs ? count * 1000.0 / (endEpochMs - startEpochMs) : 0;
    }
  }

  /**
   * The intervals of a record, each with what {@code count} takes from its line.
   *
   * @param record the record
   * @param count e.g. a request name's completions in the interval
   * @return one interval per line of {@code counters.jsonl}, in order
   */
  public static List<Interval> intervals(RunRecord record, ToLongFunction<SecondCounts> count) {
    List<Interval> intervals = new ArrayList<>();
    long start = record.manifest().startEpochMs();
    for (SecondCounts second : record.seconds()) {
      intervals.add(
          new Interval(
              start, second.epochMs(), second.elapsedSeconds(), count.applyAsLong(second)));
      start = second.epochMs();
    }
    return intervals;
  }

  /**
   * The whole intervals of the steady state: those strictly between the first and the last with a
   * non-zero count. Empty when there are fewer than three intervals from the first with a count to
   * the last.
   *
   * @param intervals the intervals of a record
   * @return the steady ones, in order
   */
  public static List<Interval> steady(List<Interval> intervals) {
    int first = first(intervals);
    int last = last(intervals, first);
    if (last - first + 1 < 3) {
      return List.of();
    }
    return intervals.subList(first + 1, last);
  }

  /**
   * The rate over the steady state; when it is shorter than three intervals, the total over the
   * span from the first interval with a count to the last; 0 when no interval has a count.
   *
   * @param intervals the intervals of a record
   * @return counts per second
   */
  public static double rate(List<Interval> intervals) {
    int first = first(intervals);
    int last = last(intervals, first);
    if (first > last) {
      return 0;
    }
    List<Interval> span =
        last - first + 1 < 3
            ? intervals.subList(first, last + 1)
            : intervals.subList(first + 1, last);
    long count = 0;
    for (Interval interval : span) {
      count += interval.count();
    }
    long spanMs = span.get(span.size() - 1).endEpochMs() - span.get(0).startEpochMs();
    return spanMs > 0 ? count * 1000.0 / spanMs : 0;
  }

  /**
   * The steady rate of one request name's completions (OK and KO) in one record. When no interval
   * counted any (a record whose {@code counters.jsonl} was lost), the whole-run total over the
   * run's duration.
   *
   * @param record one injector's record
   * @param name the request name, or null for all request names together
   * @return completed requests per second
   */
  public static double of(RunRecord record, String name) {
    List<Interval> intervals = intervals(record, second -> completed(second, name));
    if (first(intervals) < intervals.size()) {
      return rate(intervals);
    }
    long total =
        record.requests().values().stream()
            .filter(t -> name == null || t.name().equals(name))
            .mapToLong(t -> t.count())
            .sum();
    double seconds = record.durationSeconds();
    return seconds > 0 ? total / seconds : 0;
  }

  /**
   * Whether a record has a steady state: at least one whole interval between the first and the last
   * with completions. A shorter run (under about three flush intervals) has a rate made of its
   * start-up and its drain, which says more about when the recorder flushed than about the system.
   *
   * @param record one injector's record
   * @return true when {@link #steady} of its completions is not empty
   */
  public static boolean hasSteadyState(RunRecord record) {
    return !steady(intervals(record, second -> completed(second, null))).isEmpty();
  }

  /**
   * Whether {@link #of} gives one request name's rate from a steady state or, for a record without
   * per-interval counts (its {@code counters.jsonl} lost), from the whole run: false only for a run
   * too short to have a steady state, whose rate would be its start-up and drain.
   *
   * @param record one injector's record
   * @param name the request name, or null for all request names together
   */
  public static boolean rateIsJudgeable(RunRecord record, String name) {
    List<Interval> intervals = intervals(record, second -> completed(second, name));
    return first(intervals) == intervals.size() || !steady(intervals).isEmpty();
  }

  private static long completed(SecondCounts second, String name) {
    if (name != null) {
      SecondCounts.RequestSecond r = second.requests().get(name);
      return r == null ? 0 : r.ok() + r.ko();
    }
    long all = 0;
    for (SecondCounts.RequestSecond r : second.requests().values()) {
      all += r.ok() + r.ko();
    }
    return all;
  }

  private static int first(List<Interval> intervals) {
    int first = 0;
    while (first < intervals.size() && intervals.get(first).count() == 0) {
      first++;
    }
    return first;
  }

  private static int last(List<Interval> intervals, int first) {
    int last = intervals.size() - 1;
    while (last >= first && intervals.get(last).count() == 0) {
      last--;
    }
    return last;
  }
}
