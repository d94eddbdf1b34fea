package io.fusillade.workload;

import io.fusillade.record.RunSettings.Stage;
import java.time.Duration;
import java.util.List;

/**
 * What the {@code logs} section ingests: an exact number of documents, bulks at a constant rate for
 * a duration, rising steps of rates, or stages (ramps, holds and spikes, as in {@code
 * load.stages}).
 *
 * @param mode which of the three
 * @param docs {@link Mode#DOCS}: the number of documents (a multiple of the bulk size); else 0
 * @param rate {@link Mode#RATE}: bulks per second; else 0
 * @param duration {@link Mode#RATE}: how long; else null
 * @param steps {@link Mode#STEPS}: bulks per second of each step; else empty
 * @param stepDuration {@link Mode#STEPS}: how long each step lasts; else null
 * @param stages {@link Mode#STAGES}: the arrival rates (bulks/s) as ramps and holds, in order; else
 *     empty
 */
public record LogIngest(
    Mode mode,
    long docs,
    double rate,
    Duration duration,
    List<Double> steps,
    Duration stepDuration,
    List<Stage> stages) {

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
    STEPS,
    /** {@code stages}: ramps and holds of arrival rates one after another (open model). */
    STAGES
  }

  /** Copies the lists. */
  public LogIngest {
    steps = List.copyOf(steps);
    stages = stages == null ? List.of() : List.copyOf(stages);
  }

  /** Exactly {@code docs} documents. */
  public static LogIngest docs(long docs) {
    return new LogIngest(Mode.DOCS, docs, 0, null, List.of(), null, List.of());
  }

  /** {@code rate} bulks per second for {@code duration}. */
  public static LogIngest rate(double rate, Duration duration) {
    return new LogIngest(Mode.RATE, 0, rate, duration, List.of(), null, List.of());
  }

  /** One step of {@code stepDuration} per rate. */
  public static LogIngest steps(List<Double> steps, Duration stepDuration) {
    return new LogIngest(Mode.STEPS, 0, 0, null, steps, stepDuration, List.of());
  }

  /** Arrival rates as ramps and holds ({@code logs.stages}), in order. */
  public static LogIngest stages(List<Stage> stages) {
    return new LogIngest(Mode.STAGES, 0, 0, null, List.of(), null, stages);
  }

  /**
   * The number of bulks the plan sends: {@code docs / bulkSize}, or arrivals per second times
   * seconds (as Gatling's constant arrival rate injects them; a ramp sends its mean rate).
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
      case STAGES ->
          stages.stream()
              .mapToLong(
                  s -> Math.round((s.from() + s.to()) / 2 * s.duration().toMillis() / 1000.0))
              .sum();
    };
  }

  /** How long the ingest lasts, or null for an exact number of documents (not known before). */
  public Duration length() {
    return switch (mode) {
      case DOCS -> null;
      case RATE -> duration;
      case STAGES -> stages.stream().map(Stage::duration).reduce(Duration.ZERO, Duration::plus);
      default -> stepDuration.multipliedBy(steps.size());
    };
  }
}
