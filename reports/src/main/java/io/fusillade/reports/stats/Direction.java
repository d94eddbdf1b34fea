package io.fusillade.reports.stats;

/** Which way a metric improves. */
public enum Direction {
  /** More is better: throughput, documents/s, MB/s. */
  HIGHER_IS_BETTER,
  /** Less is better: latency percentiles, errors, lag, CPU used. */
  LOWER_IS_BETTER;

  /**
   * Whether a relative change goes the bad way for this direction.
   *
   * @param relativeChange candidate vs baseline, a fraction
   * @return true when it is a degradation (a rise for lower-is-better, a fall for higher-is-better)
   */
  public boolean isBad(double relativeChange) {
    return this == LOWER_IS_BETTER ? relativeChange > 0 : relativeChange < 0;
  }
}
