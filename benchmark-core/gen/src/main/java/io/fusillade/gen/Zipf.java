package io.fusillade.gen;

/**
 * Zipf's law over ranks 1..n, P(k) proportional to k<sup>-s</sup>, sampled in O(1) time and space
 * by rejection-inversion (W. Hörmann and G. Derflinger, "Rejection-inversion to generate variates
 * from monotone discrete distributions", ACM TOMACS 6(3), 1996).
 *
 * <p>The method inverts the integral H of the hat function h(x) = x<sup>-s</sup> taken over [1.5, n
 * + 0.5], with the first rank's mass (h(1) = 1) added at the left end. A point x drawn by inversion
 * is rounded to the nearest rank k; the point is accepted when it lies under the histogram of the
 * true probabilities, which for all but a few points is decided by one cheap comparison ({@code k -
 * x <= squeeze}). No table is built, so n may be huge.
 *
 * <p>The hot path uses {@link Math#log} and {@link Math#exp}, which the JIT turns into intrinsics,
 * rather than {@code log1p}/{@code expm1}; those are needed for accuracy only when s is within 1e-6
 * of 1, a case handled separately.
 */
public final class Zipf {

  private static final double NEAR_ONE = 1e-6;

  private final long n;
  private final double exponent;
  private final double oneMinusS;
  private final double inverseOneMinusS;
  private final boolean nearOne;
  // m when 1/(1-s) is an integer (s = 1.1, 1.2, 1.25, 1.5, 2...), else 0: see inverseIntegral
  private final int integerPower;
  private final double integralLeft;
  private final double integralRight;
  private final double integralSpan;
  private final double squeeze;
  // 1 + (1-s)u = baseOffset + U * baseScale for U uniform in [0, 1): see sampleIntegerPower
  private final double baseOffset;
  private final double baseScale;

  /**
   * The acceptance bound H(k + 0.5) - h(k) of the first ranks, computed once. It is the same
   * expression the loop would compute (so samples are bit-identical), memoised for the ranks that
   * most samples fall on: with s = 1.1 and n = 10^6, about 70% of samples are among the first 1024
   * ranks, and each saves two log/exp pairs. Its size is fixed whatever n is: the method stays O(1)
   * rejection-inversion, not a table over the ranks.
   */
  private final double[] acceptanceBound;

  private static final int MEMOISED_RANKS = 1024;

  /**
   * @param n the number of ranks, at least 1
   * @param exponent the exponent s, greater than 0
   */
  public Zipf(long n, double exponent) {
    if (n < 1) {
      throw new IllegalArgumentException("Zipf needs at least one rank, got " + n);
    }
    if (!(exponent > 0) || Double.isInfinite(exponent)) {
      throw new IllegalArgumentException("Zipf exponent must be > 0, got " + exponent);
    }
    this.n = n;
    double reciprocal = 1 / (1 - exponent);
    double nearestInteger = Math.rint(reciprocal);
    if (Math.abs(reciprocal - nearestInteger) < 1e-9 && Math.abs(nearestInteger) <= 64) {
      // 1 - 1.1 is -0.10000000000000009 in binary: take s = 1 - 1/m exactly (a change of 1e-16)
      // so that H and its inverse, computed by repeated squaring, stay each other's inverse.
      this.integerPower = (int) nearestInteger;
      this.oneMinusS = 1.0 / integerPower;
      this.inverseOneMinusS = integerPower;
      this.exponent = 1 - oneMinusS;
    } else {
      this.integerPower = 0;
      this.oneMinusS = 1 - exponent;
      this.inverseOneMinusS = reciprocal;
      this.exponent = exponent;
    }
    this.nearOne = Math.abs(oneMinusS) < NEAR_ONE;
    this.integralLeft = integral(1.5) - 1;
    this.integralRight = integral(n + 0.5);
    this.integralSpan = integralLeft - integralRight;
    this.squeeze = 2 - inverseIntegral(integral(2.5) - hat(2));
    this.baseOffset = 1 + oneMinusS * integralRight;
    this.baseScale = oneMinusS * integralSpan;
    int memoised = (int) Math.min(n, MEMOISED_RANKS);
    this.acceptanceBound = new double[memoised + 1];
    for (int k = 1; k <= memoised; k++) {
      acceptanceBound[k] = integral(k + 0.5) - hat(k);
    }
  }

  /**
   * @return the number of ranks
   */
  public long n() {
    return n;
  }

  /**
   * @return the exponent s
   */
  public double exponent() {
    return exponent;
  }

  /**
   * @param rng the stream to draw from
   * @return a rank in [1, n]; rank 1 is the most frequent
   */
  public long sample(Rng rng) {
    if (integerPower != 0) {
      return sampleIntegerPower(rng);
    }
    while (true) {
      double u = integralRight + rng.nextDouble() * integralSpan;
      double x = inverseIntegral(u);
      long k = rank(x);
      if (k - x <= squeeze || u >= acceptanceBound(k)) {
        return k;
      }
    }
  }

  /**
   * The same method when 1/(1-s) is a whole number m: u is uniform, so 1 + (1-s)u is uniform too
   * and is drawn directly, and x = (1 + (1-s)u)^m takes a few multiplications. u itself is only
   * needed for the rare samples the squeeze does not accept.
   */
  private long sampleIntegerPower(Rng rng) {
    while (true) {
      double base = baseOffset + rng.nextDouble() * baseScale;
      double x = power(base, integerPower);
      long k = rank(x);
      if (k - x <= squeeze || (base - 1) * inverseOneMinusS >= acceptanceBound(k)) {
        return k;
      }
    }
  }

  private long rank(double x) {
    long k = (long) (x + 0.5);
    return k < 1 ? 1 : Math.min(k, n);
  }

  /** H(k + 0.5) - h(k): a point u at or above it, rounded to k, lies under the histogram. */
  private double acceptanceBound(long k) {
    return k < acceptanceBound.length ? acceptanceBound[(int) k] : integral(k + 0.5) - hat(k);
  }

  /** h(x) = x^-s. */
  private double hat(double x) {
    return Math.exp(-exponent * Math.log(x));
  }

  /** H(x) = (x^(1-s) - 1) / (1 - s), which tends to log(x) as s tends to 1. */
  private double integral(double x) {
    double logX = Math.log(x);
    if (nearOne) {
      double t = oneMinusS * logX;
      return logX * (t == 0 ? 1 : Math.expm1(t) / t);
    }
    return (Math.exp(oneMinusS * logX) - 1) / oneMinusS;
  }

  /** The inverse of H: (1 + (1 - s) y)^(1 / (1 - s)), which tends to exp(y) as s tends to 1. */
  private double inverseIntegral(double y) {
    if (nearOne) {
      double t = oneMinusS * y;
      return Math.exp(y * (t == 0 ? 1 : Math.log1p(t) / t));
    }
    double base = 1 + oneMinusS * y;
    if (integerPower != 0) {
      // (1 + (1-s) y)^m by repeated squaring: a few multiplications instead of a log and an exp,
      // the cost of nearly every sample.
      return power(base, integerPower);
    }
    // A multiplication by a precomputed reciprocal: a division would cost as much as the exp.
    return Math.exp(Math.log(base) * inverseOneMinusS);
  }

  /** base^m for a whole m, by repeated squaring; the usual exponents' chains written out. */
  static double power(double base, int m) {
    switch (m) {
      case -10: // s = 1.1
        double b2 = base * base;
        double b8 = (b2 * b2) * (b2 * b2);
        return 1 / (b8 * b2);
      case -5: // s = 1.2
        double c2 = base * base;
        return 1 / (c2 * c2 * base);
      case -4: // s = 1.25
        double d2 = base * base;
        return 1 / (d2 * d2);
      case -2: // s = 1.5
        return 1 / (base * base);
      case -1: // s = 2
        return 1 / base;
      default:
        break;
    }
    int e = Math.abs(m);
    double result = 1;
    double square = base;
    while (e != 0) {
      if ((e & 1) != 0) {
        result *= square;
      }
      square *= square;
      e >>>= 1;
    }
    return m < 0 ? 1 / result : result;
  }
}
