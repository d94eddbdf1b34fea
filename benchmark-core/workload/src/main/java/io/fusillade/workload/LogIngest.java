package io.fusillade.workload;

import java.time.Duration;
import java.util.List;

/**
 * What the {@code logs} section ingests: an exact number of documents, bulks at a constant rate for
 * a duration, or rising steps of rates.
 *
 * @param mode which of the three
 * @param docs {@link Mode#DOCS}: the number of documents (a multiple of the bulk size); else 0
 * @param rate {@link Mode#RATE}: bulks per second; else 0
 * @param duration {@link Mode#RATE}: how long; else null
 * @param steps {@link Mode#STEPS}: bulks per second of each step; else empty
 * @param stepDuration {@link Mode#STEPS}: how long each step lasts; else null
 */
public record LogIngest(
    Mode mode,
    long docs,
    double rate,
    Duration duration,
    List<Double> steps,
    Duration stepDuration) {

  /** The default duration of {@code rate}. */
  public static final Duration DEFAULT_DURATION = Duration.ofSeconds(60);

  /** The default duration of each of {@code steps}. */
  public static final Duration DEFAULT_STEP_DURATION = Duration.ofSeconds(10);

  /** How the documents are sent. */
  public enum Mode {
    /** {@code docs}: exactly N documents, by {@code concurrency} users sending back to back. */
    DOCS,
    /** {@code rate}: one bulk per arrival, at a constant arrival rate (open model). */
    RATE,
    /** {@code steps}: constant arrival rates one after another, reported per step. */
    STEPS
  }

  /** Copies the list. */
  public LogIngest {
    steps = List.copyOf(steps);
  }

  /** Exactly {@code docs} documents. */
  public static LogIngest docs(long docs) {
    return new LogIngest(Mode.DOCS, docs, 0, null, List.of(), null);
  }

  /** {@code rate} bulks per second for {@code duration}. */
  public static LogIngest rate(double rate, Duration duration) {
    return new LogIngest(Mode.RATE, 0, rate, duration, List.of(), null);
  }

  /** One step of {@code stepDuration} per rate. */
  public static LogIngest steps(List<Double> steps, Duration stepDuration) {
    return new LogIngest(Mode.STEPS, 0, 0, null, steps, stepDuration);
  }

  /**
   * The number of bulks the plan sends: {@code docs / bulkSize}, or arrivals per second times
   * seconds (as Gatling's constant arrival rate injects them).
   *
   * @param bulkSize documents per bulk
   * @return the planned bulks
   */
  public long plannedBulks(int bulkSize) {
    return switch (mode) {
      case DOCS -> docs / bulkSize;
      case RATE -> Math.round(rate * duration.toMillis() / 1000.0);
      case STEPS ->
          steps.stream().mapToLong(r -> Math.round(r * stepDuration.toMillis() / 1000.0)).sum();
    };
  }
}
