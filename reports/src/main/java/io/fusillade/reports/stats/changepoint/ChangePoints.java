package io.fusillade.reports.stats.changepoint;

import io.fusillade.reports.stats.changepoint.EnergyStatistic.Split;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Change points of a series, found by E-divisive (Matteson and James, "A Nonparametric Approach for
 * Multiple Change Point Analysis of Multivariate Data", JASA 2014) with its permutation
 * significance test.
 *
 * <p>The method makes no assumption on the distribution and detects a change in any aspect of it
 * (mean, spread), not only a jump beyond a fixed percentage. It works by hierarchical bisection:
 *
 * <ol>
 *   <li>In each segment between the change points found so far, find the split {@code τ} (and end
 *       {@code κ}) that maximises the energy divergence Q̂ between {@code [start, τ)} and {@code
 *       [τ, κ)}; both parts at least {@link Settings#minSegmentSize()} long (see {@link
 *       EnergyStatistic}).
 *   <li>Take the segment with the largest Q̂. To judge it, shuffle the values within every segment
 *       {@link Settings#permutations()} times and recompute the largest Q̂ each time; the p-value
 *       is {@code (1 + #{shuffled ≥ observed}) / (1 + permutations)}.
 *   <li>If {@code p ≤ alpha}, the split is a change point and the search goes on; otherwise it
 *       stops.
 * </ol>
 *
 * <p>Under no change, a series yields a false change point with probability about {@code alpha}.
 * The permutations come from a {@link SplittableRandom} seeded with {@link Settings#seed()}, so a
 * series always gives the same answer. The cost is {@code O(permutations · L²)} per change point
 * tested, for a series of length {@code L}: a few hundred points take milliseconds.
 *
 * @param length the length of the series
 * @param points the change points, by increasing index
 * @param settings the settings used
 */
public record ChangePoints(int length, List<ChangePoint> points, Settings settings) {

  /**
   * Copies the list.
   *
   * @param length see {@link #length()}
   * @param points see {@link #points()}
   * @param settings see {@link #settings()}
   */
  public ChangePoints {
    points = List.copyOf(points);
    Objects.requireNonNull(settings, "settings");
  }

  /**
   * How to search.
   *
   * @param permutations permutations of the significance test, at least 1 (default 199)
   * @param alpha significance level: a split is accepted when its p-value is at most alpha (default
   *     0.05)
   * @param minSegmentSize the fewest values on each side of a change point, at least 2 (default 5)
   * @param exponent the exponent α of the distance {@code |a - b|^α}, in (0, 2) (default 1)
   * @param seed the seed of the permutations
   */
  public record Settings(
      int permutations, double alpha, int minSegmentSize, double exponent, long seed) {

    /** 199 permutations, alpha 0.05, segments of at least 5, exponent 1, a fixed seed. */
    public static final Settings DEFAULTS = new Settings(199, 0.05, 5, 1.0, 0x5EED_F0C5L);

    /**
     * Checks the ranges.
     *
     * @param permutations see {@link #permutations()}
     * @param alpha see {@link #alpha()}
     * @param minSegmentSize see {@link #minSegmentSize()}
     * @param exponent see {@link #exponent()}
     * @param seed see {@link #seed()}
     */
    public Settings {
      if (permutations < 1) {
        throw new IllegalArgumentException("permutations must be >= 1, got " + permutations);
      }
      if (!(alpha > 0 && alpha < 1)) {
        throw new IllegalArgumentException("alpha must be between 0 and 1, got " + alpha);
      }
      if (minSegmentSize < 2) {
        throw new IllegalArgumentException("minSegmentSize must be >= 2, got " + minSegmentSize);
      }
      if (!(exponent > 0 && exponent < 2)) {
        throw new IllegalArgumentException("exponent must be in (0, 2), got " + exponent);
      }
    }

    /**
     * These settings with another seed.
     *
     * @param seed the seed of the permutations
     * @return the settings
     */
    public Settings withSeed(long seed) {
      return new Settings(permutations, alpha, minSegmentSize, exponent, seed);
    }

    /**
     * These settings with another minimum segment size.
     *
     * @param minSegmentSize the fewest values on each side of a change point
     * @return the settings
     */
    public Settings withMinSegmentSize(int minSegmentSize) {
      return new Settings(permutations, alpha, minSegmentSize, exponent, seed);
    }
  }

  /**
   * Detects change points with the default settings.
   *
   * @param series the values in time order, all finite
   * @return the change points
   */
  public static ChangePoints detect(double[] series) {
    return detect(series, Settings.DEFAULTS);
  }

  /**
   * Detects change points.
   *
   * @param series the values in time order, all finite
   * @param settings how to search
   * @return the change points; none when the series is shorter than {@code 2 · minSegmentSize}
   */
  public static ChangePoints detect(double[] series, Settings settings) {
    Objects.requireNonNull(series, "series");
    Objects.requireNonNull(settings, "settings");
    for (int i = 0; i < series.length; i++) {
      if (!Double.isFinite(series[i])) {
        throw new IllegalArgumentException("value " + i + " is not a finite number: " + series[i]);
      }
    }
    int len = series.length;
    double[] values = series.clone();
    double[] shuffled = new double[len];
    double[] prefix = new double[len + 1];
    double[] column = new double[len];
    SplittableRandom random = new SplittableRandom(settings.seed());

    TreeSet<Integer> bounds = new TreeSet<>(List.of(0, len));
    List<Found> found = new ArrayList<>();
    while (true) {
      Split best = Split.NONE;
      for (int[] seg : segments(bounds)) {
        Split s = bestSplit(values, seg[0], seg[1], settings, prefix, column);
        if (s.q() > best.q()) {
          best = s;
        }
      }
      if (!best.exists()) {
        break;
      }
      int atLeast = 0;
      for (int r = 0; r < settings.permutations(); r++) {
        double max = Double.NEGATIVE_INFINITY;
        for (int[] seg : segments(bounds)) {
          if (seg[1] - seg[0] < 2 * settings.minSegmentSize()) {
            continue;
          }
          System.arraycopy(values, seg[0], shuffled, seg[0], seg[1] - seg[0]);
          shuffle(shuffled, seg[0], seg[1], random);
          max = Math.max(max, bestSplit(shuffled, seg[0], seg[1], settings, prefix, column).q());
        }
        if (max >= best.q()) {
          atLeast++;
        }
      }
      double p = (1.0 + atLeast) / (1.0 + settings.permutations());
      if (p > settings.alpha()) {
        break;
      }
      found.add(new Found(best.tau(), p, best.q(), found.size() + 1));
      bounds.add(best.tau());
    }

    found.sort(Comparator.comparingInt(Found::index));
    List<ChangePoint> points = new ArrayList<>();
    for (int i = 0; i < found.size(); i++) {
      Found f = found.get(i);
      int start = i == 0 ? 0 : found.get(i - 1).index();
      int end = i == found.size() - 1 ? len : found.get(i + 1).index();
      points.add(
          new ChangePoint(
              f.index(),
              mean(values, start, f.index()),
              mean(values, f.index(), end),
              f.pValue(),
              f.statistic(),
              f.order()));
    }
    return new ChangePoints(len, points, settings);
  }

  private record Found(int index, double pValue, double statistic, int order) {}

  private static Split bestSplit(
      double[] v, int from, int to, Settings settings, double[] prefix, double[] column) {
    return EnergyStatistic.best(
        v, from, to, settings.minSegmentSize(), settings.exponent(), prefix, column);
  }

  private static List<int[]> segments(TreeSet<Integer> bounds) {
    List<int[]> segments = new ArrayList<>();
    Integer previous = null;
    for (Integer b : bounds) {
      if (previous != null) {
        segments.add(new int[] {previous, b});
      }
      previous = b;
    }
    return segments;
  }

  /** Fisher–Yates over {@code a[from, to)}. */
  private static void shuffle(double[] a, int from, int to, SplittableRandom random) {
    for (int i = to - 1; i > from; i--) {
      int j = from + random.nextInt(i - from + 1);
      double t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }

  private static double mean(double[] v, int from, int to) {
    double s = 0;
    for (int i = from; i < to; i++) {
      s += v[i];
    }
    return s / (to - from);
  }

  /**
   * The indexes of the change points.
   *
   * @return the first index of each new regime, increasing
   */
  public List<Integer> indexes() {
    return points.stream().map(ChangePoint::index).toList();
  }

  /**
   * Whether any change point was found.
   *
   * @return true when there is at least one
   */
  public boolean isEmpty() {
    return points.isEmpty();
  }
}
