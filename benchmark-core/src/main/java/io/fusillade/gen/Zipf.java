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
  private final double integralLeft;
  private final double integralRight;
  private final double integralSpan;
  private final double squeeze;

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
    this.exponent = exponent;
    this.oneMinusS = 1 - exponent;
    this.inverseOneMinusS = 1 / oneMinusS;
    this.nearOne = Math.abs(oneMinusS) < NEAR_ONE;
    this.integralLeft = integral(1.5) - 1;
    this.integralRight = integral(n + 0.5);
    this.integralSpan = integralLeft - integralRight;
    this.squeeze = 2 - inverseIntegral(integral(2.5) - hat(2));
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
    while (true) {
      double u = integralRight + rng.nextDouble() * integralSpan;
      double x = inverseIntegral(u);
      long k = (long) (x + 0.5);
      if (k < 1) {
        k = 1;
      } else if (k > n) {
        k = n;
      }
      if (k - x <= squeeze || u >= integral(k + 0.5) - hat(k)) {
        return k;
      }
    }
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
    // A multiplication by a precomputed reciprocal: a division would cost as much as the exp.
    return Math.exp(Math.log(1 + oneMinusS * y) * inverseOneMinusS);
  }
}
