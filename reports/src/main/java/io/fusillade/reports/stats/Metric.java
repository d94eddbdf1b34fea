package io.fusillade.reports.stats;

import java.util.Objects;

/**
 * A metric that runs are compared on: a name for the reports and the direction in which it
 * improves.
 *
 * @param name the name shown in reports, e.g. {@code "p99"} or {@code "rate"}
 * @param direction which way is better
 */
public record Metric(String name, Direction direction) {

  /**
   * Checks the fields.
   *
   * @param name see {@link #name()}
   * @param direction see {@link #direction()}
   */
  public Metric {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(direction, "direction");
    if (name.isBlank()) {
      throw new IllegalArgumentException("a metric needs a name");
    }
  }

  /**
   * A metric where more is better, such as throughput.
   *
   * @param name its name
   * @return the metric
   */
  public static Metric higherIsBetter(String name) {
    return new Metric(name, Direction.HIGHER_IS_BETTER);
  }

  /**
   * A metric where less is better, such as a latency percentile or an error rate.
   *
   * @param name its name
   * @return the metric
   */
  public static Metric lowerIsBetter(String name) {
    return new Metric(name, Direction.LOWER_IS_BETTER);
  }
}
