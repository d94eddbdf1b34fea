package io.fusillade.reports.stats;

import java.util.Arrays;

/**
 * Descriptive statistics of one metric over repeated runs: one value per run.
 *
 * <p>The standard deviation is the sample one (divisor {@code n - 1}); it is {@code NaN} for a
 * single value, since one run says nothing about variation. The median of an even count is the mean
 * of the two middle values.
 *
 * @param n number of values, at least 1
 * @param mean arithmetic mean
 * @param standardDeviation sample standard deviation, {@code NaN} when {@code n == 1}
 * @param median median
 * @param min smallest value
 * @param max largest value
 */
public record Sample(
    int n, double mean, double standardDeviation, double median, double min, double max) {

  /**
   * Checks the invariants.
   *
   * @param n see {@link #n()}
   * @param mean see {@link #mean()}
   * @param standardDeviation see {@link #standardDeviation()}
   * @param median see {@link #median()}
   * @param min see {@link #min()}
   * @param max see {@link #max()}
   */
  public Sample {
    if (n < 1) {
      throw new IllegalArgumentException("a sample needs at least one value, got n=" + n);
    }
  }

  /**
   * Computes the statistics of the given values.
   *
   * @param values one value per run; not empty, all finite
   * @return the statistics
   * @throws IllegalArgumentException when empty or a value is NaN or infinite
   */
  public static Sample of(double... values) {
    if (values == null || values.length == 0) {
      throw new IllegalArgumentException("a sample needs at least one value");
    }
    for (int i = 0; i < values.length; i++) {
      if (!Double.isFinite(values[i])) {
        throw new IllegalArgumentException("value " + i + " is not a finite number: " + values[i]);
      }
    }
    int n = values.length;
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    double mean = sum / n;
    // second pass: corrected two-pass algorithm, accurate for values far from zero
    double sumSq = 0;
    double sumDev = 0;
    for (double v : values) {
      double d = v - mean;
      sumSq += d * d;
      sumDev += d;
    }
    mean += sumDev / n;
    double sd =
        n < 2 ? Double.NaN : Math.sqrt(Math.max(0, (sumSq - sumDev * sumDev / n) / (n - 1)));
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double median = n % 2 == 1 ? sorted[n / 2] : sorted[n / 2 - 1] / 2 + sorted[n / 2] / 2;
    return new Sample(n, mean, sd, median, sorted[0], sorted[n - 1]);
  }

  /**
   * The sample variance.
   *
   * @return {@code standardDeviation²}, {@code NaN} when {@code n == 1}
   */
  public double variance() {
    return standardDeviation * standardDeviation;
  }

  /**
   * The standard error of the mean, {@code s / √n}.
   *
   * @return the standard error, {@code NaN} when {@code n == 1}
   */
  public double standardError() {
    return standardDeviation / Math.sqrt(n);
  }

  /**
   * The coefficient of variation {@code s / |mean|}, as a fraction (0.02 = 2%).
   *
   * @return the CV; {@code NaN} when {@code n == 1}; 0 when all values are 0; {@code +∞} when the
   *     mean is 0 but the values vary
   */
  public double coefficientOfVariation() {
    if (n < 2) {
      return Double.NaN;
    }
    if (mean == 0) {
      return standardDeviation == 0 ? 0 : Double.POSITIVE_INFINITY;
    }
    return standardDeviation / Math.abs(mean);
  }
}
