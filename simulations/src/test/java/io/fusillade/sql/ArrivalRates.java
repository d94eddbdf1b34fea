package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunRecord;
import io.fusillade.record.SecondCounts;
import io.fusillade.reports.runs.SteadyRate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A run's arrival rate, whole interval by whole interval, and the one rule by which the rate tests
 * ({@link RateAccuracyTest}, {@link CoordinatedOmissionTest}) judge it.
 *
 * <p>The rule, {@link #assertHeld}: after start-up, every interval on its own is within the
 * tolerance of the target. The start-up intervals, those that begin within {@link #START_UP} of the
 * first whole one, while the forked JVM's JIT compiles the request path and the pools fill, are
 * judged together: their requests over their length are within the tolerance, and each one on its
 * own within twice it. A start-up second can miss the target by more than a steady one without the
 * generator being wrong: on a loaded two-core machine one start-up second ran at 1,105/s against
 * 1,000/s while every later second ran at 998 to 1,002, and the run sent its whole target. An open
 * injection profile sends each user when it is due, so a late moment is caught up soon after, and
 * the start-up as a whole still holds the rate.
 */
final class ArrivalRates {
  /** How long after the first whole interval the intervals count as start-up. */
  static final Duration START_UP = Duration.ofSeconds(5);

  /**
   * One whole interval of the run.
   *
   * @param perSecond requests sent in it, per second of its real length
   * @param startedAt when it began, in seconds from the start of the run
   * @param endedAt when it ended, in seconds from the start of the run
   */
  record Interval(double perSecond, double startedAt, double endedAt) {
    double seconds() {
      return endedAt - startedAt;
    }
  }

  private final List<Interval> intervals;
  private final double startUpEnds;

  /** The intervals of a run, in order; the first one starts the load. */
  ArrivalRates(List<Interval> intervals) {
    this(intervals, intervals.isEmpty() ? 0 : intervals.get(0).startedAt() + START_UP.toSeconds());
  }

  private ArrivalRates(List<Interval> intervals, double startUpEnds) {
    this.intervals = List.copyOf(intervals);
    this.startUpEnds = startUpEnds;
  }

  /**
   * The whole intervals of the run during which requests named {@code name} were sent: the
   * intervals before the first request and after the last are left out, and so are the partial
   * first and last intervals of the load.
   */
  static ArrivalRates of(RunRecord record, String name) {
    List<Interval> whole = new ArrayList<>();
    long start = record.manifest().startEpochMs();
    for (SteadyRate.Interval interval :
        SteadyRate.steady(SteadyRate.intervals(record, second -> sent(second, name)))) {
      whole.add(
          new Interval(
              interval.rate(),
              (interval.startEpochMs() - start) / 1000.0,
              (interval.endEpochMs() - start) / 1000.0));
    }
    return new ArrivalRates(whole);
  }

  private static long sent(SecondCounts second, String name) {
    SecondCounts.RequestSecond counts = second.requests().get(name);
    return counts == null ? 0 : counts.sent();
  }

  /** The whole intervals, in order. */
  List<Interval> intervals() {
    return intervals;
  }

  /**
   * These intervals without those {@code left} selects (judged on their own terms by the caller);
   * the start-up stays the one of the whole run.
   */
  ArrivalRates without(Predicate<Interval> left) {
    return new ArrivalRates(intervals.stream().filter(left.negate()).toList(), startUpEnds);
  }

  /** Whether the interval began during start-up. */
  boolean startUp(Interval interval) {
    return interval.startedAt() < startUpEnds;
  }

  /**
   * Asserts the rule of this class: steady intervals each within {@code target} ± {@code tolerance}
   * (a fraction, 0.10 for ± 10%), start-up intervals together within it and each within twice it.
   */
  void assertHeld(double target, double tolerance) {
    List<Interval> startUp = intervals.stream().filter(this::startUp).toList();
    List<Interval> steady = intervals.stream().filter(i -> !startUp(i)).toList();
    double loose = 2 * tolerance;
    assertThat(startUp)
        .allSatisfy(
            i ->
                assertThat(i.perSecond())
                    .as(
                        "arrivals/s in the start-up interval ending %.1f s into the run",
                        i.endedAt())
                    .isBetween(target * (1 - loose), target * (1 + loose)));
    if (!startUp.isEmpty()) {
      double sent = startUp.stream().mapToDouble(i -> i.perSecond() * i.seconds()).sum();
      double seconds = startUp.stream().mapToDouble(Interval::seconds).sum();
      assertThat(sent / seconds)
          .as(
              "arrivals/s over the %d start-up intervals, to %.1f s into the run",
              startUp.size(), startUp.get(startUp.size() - 1).endedAt())
          .isBetween(target * (1 - tolerance), target * (1 + tolerance));
    }
    assertThat(steady)
        .allSatisfy(
            i ->
                assertThat(i.perSecond())
                    .as("arrivals/s in the interval ending %.1f s into the run", i.endedAt())
                    .isBetween(target * (1 - tolerance), target * (1 + tolerance)));
  }
}
