package io.fusillade.reports.runs;

import java.util.Arrays;

/** A per-second series that grows as seconds arrive: sums of longs, or maxima of doubles. */
final class Growable {
  private Growable() {}

  static long[] add(long[] series, int index, long value) {
    long[] s = index < series.length ? series : Arrays.copyOf(series, grow(series.length, index));
    s[index] += value;
    return s;
  }

  /** Sets the value, or keeps the larger one when the second already has one (not NaN). */
  static double[] max(double[] series, int index, double value) {
    double[] s = grown(series, index);
    s[index] = Double.isNaN(s[index]) ? value : Math.max(s[index], value);
    return s;
  }

  /**
   * Adds, treating NaN as nothing yet. (It once grew the series through {@link #max} with a NaN,
   * which wiped the value already there: a second with two values kept only the last, and a gauge
   * averaged over both came out halved.)
   */
  static double[] sum(double[] series, int index, double value) {
    double[] s = grown(series, index);
    s[index] = Double.isNaN(s[index]) ? value : s[index] + value;
    return s;
  }

  /** The series, long enough to hold {@code index}, new seconds NaN. */
  private static double[] grown(double[] series, int index) {
    if (index < series.length) {
      return series;
    }
    double[] s = Arrays.copyOf(series, grow(series.length, index));
    Arrays.fill(s, series.length, s.length, Double.NaN);
    return s;
  }

  private static int grow(int length, int index) {
    return Math.max(index + 1, Math.max(16, length * 2));
  }

  static long[] fit(long[] series, int length) {
    return Arrays.copyOf(series, length);
  }

  static double[] fit(double[] series, int length) {
    int old = Math.min(series.length, length);
    double[] s = Arrays.copyOf(series, length);
    Arrays.fill(s, old, length, Double.NaN);
    return s;
  }
}
