package io.fusillade.gen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.commons.math3.distribution.AbstractRealDistribution;
import org.apache.commons.math3.distribution.ExponentialDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.RealDistribution;
import org.apache.commons.math3.distribution.UniformRealDistribution;
import org.apache.commons.math3.stat.inference.ChiSquareTest;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With large samples, each distribution passes a goodness-of-fit test against its intended law (p
 * above 0.001) and fails against a wrong one (p below 1e-6). Seeds are fixed, so the outcome never
 * varies between runs.
 */
class GoodnessOfFitTest {

  private static final int SAMPLES = 100_000;
  private static final long SEED = 20240601L;
  private static final double ACCEPT = 1e-3;
  private static final double REJECT = 1e-6;

  private final ChiSquareTest chiSquare = new ChiSquareTest();
  private final KolmogorovSmirnovTest ks = new KolmogorovSmirnovTest();

  @Test
  void uniformIntegersFitTheUniformLawAndNotZipf() {
    long[] observed = histogram(integers(Distribution.uniform(), 1, 20), 1, 20);

    assertThat(chiSquare.chiSquareTest(uniformWeights(20), observed)).isGreaterThan(ACCEPT);
    assertThat(chiSquare.chiSquareTest(zipfWeights(20, 1.1), observed)).isLessThan(REJECT);
  }

  @Test
  void zipfIntegersFitTheirExponentAndNotANeighbouringOne() {
    long[] observed = histogram(integers(Distribution.zipf(1.1), 1, 50), 1, 50);

    assertThat(chiSquare.chiSquareTest(zipfWeights(50, 1.1), observed)).isGreaterThan(ACCEPT);
    assertThat(chiSquare.chiSquareTest(zipfWeights(50, 1.0), observed)).isLessThan(REJECT);
    assertThat(chiSquare.chiSquareTest(uniformWeights(50), observed)).isLessThan(REJECT);
  }

  @Test
  void zipfOverAMillionRanksFitsItsHeadAndTail() {
    int n = 1_000_000;
    double s = 1.1;
    Zipf zipf = new Zipf(n, s);
    Rng rng = new Rng(SEED);
    int head = 30;
    long[] observed = new long[head + 1];
    for (int i = 0; i < SAMPLES; i++) {
      long k = zipf.sample(rng);
      assertThat(k).isBetween(1L, (long) n);
      observed[k <= head ? (int) k - 1 : head]++;
    }
    double norm = 0;
    for (int k = 1; k <= n; k++) {
      norm += Math.pow(k, -s);
    }
    double[] expected = new double[head + 1];
    double headMass = 0;
    for (int k = 1; k <= head; k++) {
      expected[k - 1] = Math.pow(k, -s) / norm;
      headMass += expected[k - 1];
    }
    expected[head] = 1 - headMass;

    assertThat(chiSquare.chiSquareTest(expected, observed)).isGreaterThan(ACCEPT);
  }

  /**
   * Every way Zipf computes its inverse: the written-out powers (1.1, 1.2, 1.25, 1.5, 2), the
   * squaring loop (0.5, 0.75, 0.8: positive powers), and the general log/exp (0.99, 1.7, 3).
   */
  @ParameterizedTest
  @ValueSource(doubles = {0.5, 0.75, 0.8, 0.99, 1.1, 1.2, 1.25, 1.5, 1.7, 2.0, 3.0})
  void zipfFitsItsLawOnEveryComputationPath(double s) {
    int n = 200;
    Zipf zipf = new Zipf(n, s);
    Rng rng = new Rng(SEED + Double.doubleToLongBits(s));
    long[] observed = new long[n];
    for (int i = 0; i < SAMPLES; i++) {
      observed[(int) zipf.sample(rng) - 1]++;
    }
    assertThat(chiSquare.chiSquareTest(zipfWeights(n, s), observed)).isGreaterThan(ACCEPT);
    assertThat(chiSquare.chiSquareTest(zipfWeights(n, s * 1.05), observed)).isLessThan(REJECT);
  }

  @Test
  void zipfPowersBySquaringMatchMathPow() {
    for (int m = -64; m <= 64; m++) {
      for (double base : new double[] {0.5, 0.999, 1.0, 1.37, 2.0}) {
        assertThat(Zipf.power(base, m))
            .as("%s^%d", base, m)
            .isCloseTo(Math.pow(base, m), org.assertj.core.api.Assertions.withinPercentage(1e-12));
      }
    }
  }

  @Test
  void zipfNearExponentOneUsesTheStableFormulas() {
    long[] observed = histogram(integers(Distribution.zipf(1.0 + 1e-9), 1, 40), 1, 40);

    assertThat(chiSquare.chiSquareTest(zipfWeights(40, 1.0), observed)).isGreaterThan(ACCEPT);
  }

  @Test
  void weightedChoiceFollowsItsWeightsAndNotUniform() {
    ValueSpec spec =
        ValueSpec.builder("grade", ValueType.CHOICE)
            .choices(List.of("a", "b", "c", "d"), List.of(5.0, 3.0, 1.0, 1.0))
            .build();
    ValueGenerator gen = ValueGenerator.create(spec, SEED, "t", 0, 1);
    long[] observed = new long[4];
    for (int i = 0; i < SAMPLES; i++) {
      observed[((String) gen.next()).charAt(0) - 'a']++;
    }

    assertThat(chiSquare.chiSquareTest(new double[] {5, 3, 1, 1}, observed)).isGreaterThan(ACCEPT);
    assertThat(chiSquare.chiSquareTest(uniformWeights(4), observed)).isLessThan(REJECT);
  }

  @Test
  void normalDoublesFitTheTruncatedNormalAndNotAWiderOne() {
    double[] sample = doubles(Distribution.normal(), 0, 100);
    double sigma = 100 / 6.0;

    assertThat(
            ks.kolmogorovSmirnovTest(truncated(new NormalDistribution(50, sigma), 0, 100), sample))
        .isGreaterThan(ACCEPT);
    assertThat(ks.kolmogorovSmirnovTest(new NormalDistribution(50, 25), sample)).isLessThan(REJECT);
    assertThat(ks.kolmogorovSmirnovTest(new UniformRealDistribution(0, 100), sample))
        .isLessThan(REJECT);
  }

  @Test
  void exponentialDoublesFitTheTruncatedExponentialAndNotAnotherRate() {
    // Rate 5 per range width over [0, 10]: mean 2 before truncation to the range.
    double[] sample = doubles(Distribution.exponential(5), 0, 10);

    assertThat(ks.kolmogorovSmirnovTest(truncated(new ExponentialDistribution(2), 0, 10), sample))
        .isGreaterThan(ACCEPT);
    assertThat(ks.kolmogorovSmirnovTest(truncated(new ExponentialDistribution(3), 0, 10), sample))
        .isLessThan(REJECT);
  }

  @Test
  void uniformDoublesFitTheUniformLaw() {
    double[] sample = doubles(Distribution.uniform(), -5, 5);

    assertThat(ks.kolmogorovSmirnovTest(new UniformRealDistribution(-5, 5), sample))
        .isGreaterThan(ACCEPT);
  }

  @Test
  void nullPercentageIsWithinOnePointAtHundredThousandRows() {
    ValueSpec spec =
        ValueSpec.builder("maybe", ValueType.INTEGER).range(1L, 1000L).nullPercentage(12.5).build();
    ValueGenerator gen = ValueGenerator.create(spec, SEED, "t", 0, 1);
    int nulls = 0;
    for (int i = 0; i < SAMPLES; i++) {
      if (gen.next() == null) {
        nulls++;
      }
    }

    assertThat(100.0 * nulls / SAMPLES).isBetween(11.5, 13.5);
  }

  @Test
  void booleansFollowTheirProbability() {
    ValueSpec spec = ValueSpec.builder("flag", ValueType.BOOLEAN).probability(0.3).build();
    ValueGenerator gen = ValueGenerator.create(spec, SEED, "t", 0, 1);
    long[] observed = new long[2];
    for (int i = 0; i < SAMPLES; i++) {
      observed[(Boolean) gen.next() ? 1 : 0]++;
    }

    assertThat(chiSquare.chiSquareTest(new double[] {0.7, 0.3}, observed)).isGreaterThan(ACCEPT);
    assertThat(chiSquare.chiSquareTest(new double[] {0.5, 0.5}, observed)).isLessThan(REJECT);
  }

  private static long[] integers(Distribution distribution, long lo, long hi) {
    ValueSpec spec =
        ValueSpec.builder("v", ValueType.LONG).distribution(distribution).range(lo, hi).build();
    ValueGenerator gen = ValueGenerator.create(spec, SEED, "t", 0, 1);
    long[] out = new long[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) {
      out[i] = (Long) gen.next();
    }
    return out;
  }

  private static double[] doubles(Distribution distribution, double lo, double hi) {
    ValueSpec spec =
        ValueSpec.builder("v", ValueType.DOUBLE).distribution(distribution).range(lo, hi).build();
    ValueGenerator gen = ValueGenerator.create(spec, SEED, "t", 0, 1);
    double[] out = new double[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) {
      out[i] = (Double) gen.next();
      assertThat(out[i]).isBetween(lo, hi);
    }
    return out;
  }

  private static long[] histogram(long[] values, long lo, long hi) {
    long[] counts = new long[(int) (hi - lo + 1)];
    for (long v : values) {
      assertThat(v).isBetween(lo, hi);
      counts[(int) (v - lo)]++;
    }
    return counts;
  }

  private static double[] uniformWeights(int n) {
    double[] w = new double[n];
    java.util.Arrays.fill(w, 1);
    return w;
  }

  private static double[] zipfWeights(int n, double s) {
    double[] w = new double[n];
    for (int k = 1; k <= n; k++) {
      w[k - 1] = Math.pow(k, -s);
    }
    return w;
  }

  /** A continuous law conditioned on [lo, hi]. */
  private static RealDistribution truncated(RealDistribution base, double lo, double hi) {
    double from = base.cumulativeProbability(lo);
    double mass = base.cumulativeProbability(hi) - from;
    return new AbstractRealDistribution(null) {
      private static final long serialVersionUID = 1L;

      @Override
      public double density(double x) {
        return x < lo || x > hi ? 0 : base.density(x) / mass;
      }

      @Override
      public double cumulativeProbability(double x) {
        if (x <= lo) {
          return 0;
        }
        if (x >= hi) {
          return 1;
        }
        return (base.cumulativeProbability(x) - from) / mass;
      }

      @Override
      public double getNumericalMean() {
        throw new UnsupportedOperationException();
      }

      @Override
      public double getNumericalVariance() {
        throw new UnsupportedOperationException();
      }

      @Override
      public double getSupportLowerBound() {
        return lo;
      }

      @Override
      public double getSupportUpperBound() {
        return hi;
      }

      @Override
      public boolean isSupportLowerBoundInclusive() {
        return true;
      }

      @Override
      public boolean isSupportUpperBoundInclusive() {
        return true;
      }

      @Override
      public boolean isSupportConnected() {
        return true;
      }
    };
  }
}
