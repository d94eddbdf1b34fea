package io.fusillade.reports.stats.changepoint;

/**
 * The divergence statistic of E-divisive (Matteson and James 2014) and the search of its best split
 * inside one segment.
 *
 * <p>For {@code X = v[0, τ)} and {@code Y = v[τ, κ)} of sizes {@code m} and {@code n}, with {@code
 * d(a, b) = |a - b|^α}:
 *
 * <pre>
 *   Ê = 2/(mn) Σ d(X_i, Y_j) - 1/C(m,2) Σ_{i<k} d(X_i, X_k) - 1/C(n,2) Σ_{j<k} d(Y_j, Y_k)
 *   Q̂ = mn/(m+n) · Ê
 * </pre>
 *
 * <p>{@link #best} maximises Q̂ over {@code τ} and {@code κ} (both sides at least {@code minSize}
 * long) in O(L²) time and O(L) memory: all three sums follow from the within-sums {@code W(a, b) =
 * Σ_{a≤j<k<b} d(v_j, v_k)}, since the between-sum is {@code W(0, κ) - W(0, τ) - W(τ, κ)}. {@code
 * W(0, ·)} is one prefix pass; {@code W(τ, ·)} is rebuilt for each {@code τ} from per-column sums
 * that grow as {@code τ} moves left.
 */
final class EnergyStatistic {

  private EnergyStatistic() {}

  /** The best split of a segment: the change point {@code tau} and its statistic. */
  record Split(int tau, int kappa, double q) {
    static final Split NONE = new Split(-1, -1, Double.NEGATIVE_INFINITY);

    boolean exists() {
      return tau >= 0;
    }
  }

  static double distance(double a, double b, double alpha) {
    double d = Math.abs(a - b);
    return alpha == 1 ? d : Math.pow(d, alpha);
  }

  /**
   * The best split of {@code v[from, to)}; {@code tau} and {@code kappa} are absolute indexes.
   * {@link Split#NONE} when the segment is shorter than {@code 2 · minSize}.
   *
   * @param prefix work array of at least {@code to - from + 1} doubles
   * @param column work array of at least {@code to - from} doubles
   */
  static Split best(
      double[] v, int from, int to, int minSize, double alpha, double[] prefix, double[] column) {
    int len = to - from;
    if (len < 2 * minSize) {
      return Split.NONE;
    }
    // prefix[k] = W(0, k), relative to from
    prefix[0] = 0;
    prefix[1] = 0;
    for (int k = 1; k < len; k++) {
      double vk = v[from + k];
      double s = 0;
      for (int j = 0; j < k; j++) {
        s += distance(v[from + j], vk, alpha);
      }
      prefix[k + 1] = prefix[k] + s;
    }
    // column[k] = Σ_{a≤j<k} d(v_j, v_k) for the current a (= tau), k > a
    java.util.Arrays.fill(column, 0, len, 0);
    int bestTau = -1;
    int bestKappa = -1;
    double bestQ = Double.NEGATIVE_INFINITY;
    for (int a = len - 1; a >= minSize; a--) {
      double va = v[from + a];
      for (int k = a + 1; k < len; k++) {
        column[k] += distance(va, v[from + k], alpha);
      }
      if (a > len - minSize) {
        continue;
      }
      double m = a;
      double wx = prefix[a];
      double withinX = wx / (m * (m - 1) / 2);
      double wy = 0; // W(a, kappa)
      for (int kappa = a + 1; kappa <= len; kappa++) {
        wy += column[kappa - 1];
        int n = kappa - a;
        if (n < minSize) {
          continue;
        }
        double between = prefix[kappa] - wx - wy;
        double e = 2 * between / (m * n) - withinX - wy / (n * (n - 1.0) / 2);
        double q = m * n / (m + n) * e;
        if (q > bestQ) {
          bestQ = q;
          bestTau = a;
          bestKappa = kappa;
        }
      }
    }
    return new Split(from + bestTau, from + bestKappa, bestQ);
  }

  /** Q̂ of {@code X = v[from, tau)} vs {@code Y = v[tau, kappa)}, straight from the definition. */
  static double q(double[] v, int from, int tau, int kappa, double alpha) {
    int m = tau - from;
    int n = kappa - tau;
    double between = 0;
    for (int i = from; i < tau; i++) {
      for (int j = tau; j < kappa; j++) {
        between += distance(v[i], v[j], alpha);
      }
    }
    double wx = 0;
    for (int i = from; i < tau; i++) {
      for (int k = i + 1; k < tau; k++) {
        wx += distance(v[i], v[k], alpha);
      }
    }
    double wy = 0;
    for (int j = tau; j < kappa; j++) {
      for (int k = j + 1; k < kappa; k++) {
        wy += distance(v[j], v[k], alpha);
      }
    }
    double e = 2 * between / ((double) m * n) - wx / (m * (m - 1) / 2.0) - wy / (n * (n - 1) / 2.0);
    return (double) m * n / (m + n) * e;
  }
}
