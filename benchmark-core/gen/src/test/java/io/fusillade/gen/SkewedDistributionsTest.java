package io.fusillade.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.commons.math3.stat.inference.ChiSquareTest;
import org.junit.jupiter.api.Test;

/**
 * The distributions of the standard workloads: YCSB's {@code hotspot} and {@code latest} and
 * TPC-C's {@code nurand}. With 100,000 draws each fits its own law (chi-square p above 0.001) and
 * is told apart from its neighbours (p below 1e-6); seeds are fixed, so the outcome never varies.
 */
class SkewedDistributionsTest {
  private static final int SAMPLES = 100_000;
  private static final long SEED = 20261126L;
  private static final double ACCEPT = 1e-3;
  private static final double REJECT = 1e-6;

  private final ChiSquareTest chiSquare = new ChiSquareTest();

  @Test
  void hotspotPutsItsShareOfDrawsOnTheFirstValuesUniformlyAndTheRestOnTheOthers() {
    long[] observed = histogram(Distribution.hotspot(0.2, 0.8), 1, 100);

    assertThat(chiSquare.chiSquareTest(hotspotWeights(100, 20, 0.8), observed))
        .isGreaterThan(ACCEPT);
    assertThat(chiSquare.chiSquareTest(hotspotWeights(100, 20, 0.7), observed)).isLessThan(REJECT);
    assertThat(chiSquare.chiSquareTest(hotspotWeights(100, 25, 0.8), observed)).isLessThan(REJECT);
    assertThat(chiSquare.chiSquareTest(uniform(100), observed)).isLessThan(REJECT);
    long hot = 0;
    for (int i = 0; i < 20; i++) {
      hot += observed[i];
    }
    assertThat(hot / (double) SAMPLES).isBetween(0.79, 0.81);
  }

  @Test
  void hotspotDefaultsToEightyPercentOfDrawsOnTwentyPercentOfValues() {
    Distribution d = new Distribution(Distribution.Kind.HOTSPOT, Double.NaN);

    assertThat(d.parameter()).isEqualTo(0.2);
    assertThat(d.second()).isEqualTo(0.8);
    assertThat(d).hasToString("hotspot(0.2, 0.8)");
  }

  @Test
  void latestMakesTheUpperBoundTheMostFrequentWithZipfsLawCountedDownFromIt() {
    long[] observed = histogram(Distribution.latest(0.99), 1, 50);
    double[] expected = new double[50];
    double[] steeper = new double[50];
    for (int v = 1; v <= 50; v++) {
      int rank = 51 - v; // 50 is rank 1
      expected[v - 1] = Math.pow(rank, -0.99);
      steeper[v - 1] = Math.pow(rank, -1.1);
    }

    assertThat(chiSquare.chiSquareTest(expected, observed)).isGreaterThan(ACCEPT);
    assertThat(chiSquare.chiSquareTest(steeper, observed)).isLessThan(REJECT);
    assertThat(chiSquare.chiSquareTest(reversed(expected), observed)).isLessThan(REJECT);
    assertThat(observed[49]).isGreaterThan(observed[48]).isGreaterThan(observed[0] * 20);
  }

  @Test
  void nurandFitsTpccsFormulaExactlyEnumeratedAndIsFarFromUniform() {
    // TPC-C's customer ids: NURand(1023, 1, 3000), with C = 259
    int n = 3000;
    int a = 1023;
    int c = 259;
    long[] observed = histogram(Distribution.nurand(a, c), 1, n);
    double[] expected = new double[n];
    for (int r1 = 0; r1 <= a; r1++) {
      for (int r2 = 0; r2 < n; r2++) {
        expected[((r1 | r2) + c) % n]++;
      }
    }

    assertThat(chiSquare.chiSquareTest(expected, observed)).isGreaterThan(ACCEPT);
    assertThat(chiSquare.chiSquareTest(uniform(n), observed)).isLessThan(REJECT);
    double[] otherC = new double[n];
    for (int v = 0; v < n; v++) {
      otherC[v] = expected[(v + 500) % n];
    }
    assertThat(chiSquare.chiSquareTest(otherC, observed)).isLessThan(REJECT);
  }

  @Test
  void nurandDefaultsItsConstantWithinZeroToA() {
    Distribution d = new Distribution(Distribution.Kind.NURAND, 8191);

    assertThat(d.second()).isEqualTo(Math.floor(0.618 * 8191));
    assertThat(d).hasToString("nurand(8191, 5062)");
  }

  @Test
  void parametersOutOfTheirDomainsAreRefusedWithTheReason() {
    assertThatThrownBy(() -> Distribution.hotspot(1.5, 0.8))
        .hasMessageContaining("hot set's share of the range must be in (0, 1]");
    assertThatThrownBy(() -> Distribution.hotspot(0.2, 1.2))
        .hasMessageContaining("share of draws in the hot set must be in [0, 1]");
    assertThatThrownBy(() -> new Distribution(Distribution.Kind.NURAND, 10.5))
        .hasMessageContaining("A must be a whole number");
    assertThatThrownBy(() -> Distribution.nurand(255, 256))
        .hasMessageContaining("C must be a whole number in [0, A = 255]");
    assertThat(Distribution.problem(Distribution.Kind.LATEST, -1, Double.NaN))
        .contains("must be a positive number");
  }

  @Test
  void theSkewedFamiliesAreDiscreteOnly() {
    assertThat(Distribution.hotspot(0.2, 0.8).isContinuous()).isFalse();
    assertThatThrownBy(() -> Distribution.latest(1).unit())
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void overTheWholeLongRangeEveryFamilyStaysInside() {
    for (Distribution d :
        new Distribution[] {
          Distribution.hotspot(0.1, 0.9), Distribution.latest(0.99), Distribution.nurand(8191, 7)
        }) {
      ValueSpec spec =
          ValueSpec.builder("v", ValueType.LONG)
              .distribution(d)
              .range(Long.MAX_VALUE - 1000, Long.MAX_VALUE)
              .build();
      ValueGenerator gen = ValueGenerator.create(spec, SEED, "t", 0, 1);
      for (int i = 0; i < 10_000; i++) {
        assertThat((Long) gen.next())
            .as(d.toString())
            .isBetween(Long.MAX_VALUE - 1000, Long.MAX_VALUE);
      }
    }
  }

  private static long[] histogram(Distribution distribution, long lo, long hi) {
    ValueSpec spec =
        ValueSpec.builder("v", ValueType.LONG).distribution(distribution).range(lo, hi).build();
    ValueGenerator gen = ValueGenerator.create(spec, SEED, "t", 0, 1);
    long[] counts = new long[(int) (hi - lo + 1)];
    for (int i = 0; i < SAMPLES; i++) {
      long v = (Long) gen.next();
      assertThat(v).isBetween(lo, hi);
      counts[(int) (v - lo)]++;
    }
    return counts;
  }

  private static double[] hotspotWeights(int n, int hot, double hotDraws) {
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      w[i] = i < hot ? hotDraws / hot : (1 - hotDraws) / (n - hot);
    }
    return w;
  }

  private static double[] uniform(int n) {
    double[] w = new double[n];
    java.util.Arrays.fill(w, 1);
    return w;
  }

  private static double[] reversed(double[] w) {
    double[] r = new double[w.length];
    for (int i = 0; i < w.length; i++) {
      r[i] = w[w.length - 1 - i];
    }
    return r;
  }
}
