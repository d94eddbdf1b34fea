package io.fusillade.reports.checks;

import io.fusillade.reports.format.Numbers;
import java.util.Arrays;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * Whether a series grows: the Mann–Kendall trend test with Sen's slope.
 *
 * <p>Mann–Kendall counts, over all pairs {@code i < j}, how often {@code x_j > x_i} minus how often
 * {@code x_j < x_i} (S), and compares S with its distribution under "no trend" (normal, variance
 * {@code n(n-1)(2n+5)/18} corrected for ties, with a continuity correction). It assumes nothing
 * about the distribution of the values and is insensitive to outliers. Sen's slope is the median of
 * the pairwise slopes {@code (x_j - x_i)/(j - i)}: a robust estimate of the growth per step.
 *
 * <p>A series is <em>growing</em> when the one-sided p-value is below {@link #ALPHA} <em>and</em>
 * the growth that Sen's slope implies over the whole series exceeds the series' interquartile
 * range. The second condition keeps a long, steady series with a statistically detectable but tiny
 * drift (per-second lag samples are autocorrelated, which makes the test over-eager) from failing:
 * the lag must grow by more than it fluctuates. Series longer than {@link #MAX_POINTS} are first
 * averaged in consecutive blocks.
 *
 * @param n the number of points tested (after block averaging)
 * @param s the Mann–Kendall statistic
 * @param pValue the one-sided p-value of an increasing trend
 * @param slopePerSecond Sen's slope, per second of the original series
 * @param growth the slope times the series' duration
 * @param interquartileRange the IQR of the tested points
 */
record TrendTest(
    int n, long s, double pValue, double slopePerSecond, double growth, double interquartileRange) {
  static final double ALPHA = 0.01;
  static final int MAX_POINTS = 600;
  private static final NormalDistribution NORMAL = new NormalDistribution();

  boolean growing() {
    return pValue < ALPHA && slopePerSecond > 0 && growth > interquartileRange;
  }

  /**
   * The verdict in words with the numbers it read: {@code "not growing over 54 s: Mann-Kendall
   * p=0.41 (not below 0.01); growth 12.0 (Sen's slope 0.22/s) not above the IQR 30.0"}.
   *
   * @param seconds the seconds tested
   */
  String explain(int seconds) {
    boolean significant = pValue < ALPHA && slopePerSecond > 0;
    boolean large = growth > interquartileRange;
    String trend =
        "Mann-Kendall "
            + Numbers.pValue(pValue)
            + (pValue < ALPHA ? " (below " + ALPHA + ")" : " (not below " + ALPHA + ")")
            + (slopePerSecond > 0 ? "" : " with no rise");
    String size =
        "growth "
            + Numbers.number(growth)
            + " (Sen's slope "
            + Numbers.number(slopePerSecond)
            + "/s) "
            + (large ? "above" : "not above")
            + " the IQR "
            + Numbers.number(interquartileRange);
    return (growing() ? "growing" : "not growing")
        + " over "
        + seconds
        + " s: "
        + trend
        + (significant && !large ? ", but " : "; ")
        + size;
  }

  /** Tests one value per second. */
  static TrendTest of(double[] perSecond) {
    int block = Math.max(1, (perSecond.length + MAX_POINTS - 1) / MAX_POINTS);
    int n = perSecond.length / block;
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      double sum = 0;
      for (int k = 0; k < block; k++) {
        sum += perSecond[i * block + k];
      }
      x[i] = sum / block;
    }
    long s = 0;
    double[] slopes = new double[n * (n - 1) / 2];
    int m = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        double d = x[j] - x[i];
        s += d > 0 ? 1 : d < 0 ? -1 : 0;
        slopes[m++] = d / (j - i);
      }
    }
    double[] sorted = x.clone();
    Arrays.sort(sorted);
    double ties = 0;
    for (int i = 0; i < n; ) {
      int j = i;
      while (j < n && sorted[j] == sorted[i]) {
        j++;
      }
      double t = j - i;
      ties += t * (t - 1) * (2 * t + 5);
      i = j;
    }
    double variance = (n * (n - 1.0) * (2.0 * n + 5) - ties) / 18;
    double p;
    if (variance <= 0) {
      p = 1;
    } else {
      double z = s > 0 ? (s - 1) / Math.sqrt(variance) : s < 0 ? (s + 1) / Math.sqrt(variance) : 0;
      p = 1 - NORMAL.cumulativeProbability(z);
    }
    Arrays.sort(slopes, 0, m);
    double slope =
        m == 0 ? 0 : m % 2 == 1 ? slopes[m / 2] : (slopes[m / 2 - 1] + slopes[m / 2]) / 2;
    double perSecondSlope = slope / block;
    double iqr = n == 0 ? 0 : quantile(sorted, 0.75) - quantile(sorted, 0.25);
    return new TrendTest(n, s, p, perSecondSlope, perSecondSlope * perSecond.length, iqr);
  }

  private static double quantile(double[] sorted, double q) {
    double position = q * (sorted.length - 1);
    int low = (int) Math.floor(position);
    int high = Math.min(sorted.length - 1, low + 1);
    return sorted[low] + (position - low) * (sorted[high] - sorted[low]);
  }
}
