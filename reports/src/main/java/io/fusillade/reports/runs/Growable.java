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
    double[] s = series;
    if (index >= s.length) {
      int old = s.length;
      s = Arrays.copyOf(s, grow(old, index));
      Arrays.fill(s, old, s.length, Double.NaN);
    }
    s[index] = Double.isNaN(s[index]) ? value : Math.max(s[index], value);
    return s;
  }

  /** Adds, treating NaN as nothing yet. */
  static double[] sum(double[] series, int index, double value) {
    double[] s = max(series, index, Double.NaN);
    s[index] = Double.isNaN(s[index]) ? value : s[index] + value;
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
