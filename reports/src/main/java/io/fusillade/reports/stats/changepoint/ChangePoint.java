package io.fusillade.reports.stats.changepoint;

/**
 * One change point in a series: the distribution shifts at {@code index}, so {@code index} is the
 * first value (the first run) of the new regime.
 *
 * @param index the index of the first value after the change
 * @param meanBefore the mean of the segment ending just before {@code index} (from the previous
 *     change point, or the start)
 * @param meanAfter the mean of the segment starting at {@code index} (up to the next change point,
 *     or the end)
 * @param pValue the permutation p-value with which it was accepted
 * @param statistic the energy statistic Q̂ of the split when it was found
 * @param order 1 for the first change point found (the strongest), 2 for the next, and so on
 */
public record ChangePoint(
    int index, double meanBefore, double meanAfter, double pValue, double statistic, int order) {

  /**
   * The relative change of the mean across the change point, a fraction.
   *
   * @return {@code meanAfter / meanBefore - 1}; {@code ±∞} or {@code NaN} when {@code meanBefore}
   *     is 0
   */
  public double relativeChange() {
    return meanAfter / meanBefore - 1;
  }
}
