package io.fusillade.reports.stats.changepoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class EnergyStatisticTest {

  @Test
  void handComputedValue() {
    // X = {0, 0}, Y = {1, 1}, α = 1: between-sum 4, within-sums 0;
    // Ê = 2·4/(2·2) - 0 - 0 = 2, Q̂ = 2·2/(2+2) · 2 = 2
    double[] v = {0, 0, 1, 1};
    assertThat(EnergyStatistic.q(v, 0, 2, 4, 1.0)).isCloseTo(2.0, within(1e-15));
    EnergyStatistic.Split best =
        EnergyStatistic.best(v, 0, 4, 2, 1.0, new double[5], new double[4]);
    assertThat(best.tau()).isEqualTo(2);
    assertThat(best.kappa()).isEqualTo(4);
    assertThat(best.q()).isCloseTo(2.0, within(1e-15));
  }

  @Test
  void handComputedValueWithExponent() {
    // X = {0, 1}, Y = {3}, ... use X = {0, 1}, Y = {3, 5}, α = 0.5
    // between: √3 + √5 + √2 + √4; within X: 1; within Y: √2
    double[] v = {0, 1, 3, 5};
    double between = Math.sqrt(3) + Math.sqrt(5) + Math.sqrt(2) + 2;
    double e = 2 * between / 4 - 1 - Math.sqrt(2);
    assertThat(EnergyStatistic.q(v, 0, 2, 4, 0.5)).isCloseTo(e, within(1e-12));
  }

  @Test
  void fastSearchAgreesWithTheDefinition() {
    Random random = new Random(5);
    for (int trial = 0; trial < 30; trial++) {
      int len = 10 + random.nextInt(40);
      int from = random.nextInt(5);
      double[] v = new double[from + len + 3];
      for (int i = 0; i < v.length; i++) {
        v[i] = random.nextGaussian() + (i > from + len / 2 ? 1.5 : 0);
      }
      int minSize = 2 + random.nextInt(4);
      double alpha = trial % 3 == 0 ? 1.0 : 0.3 + random.nextDouble() * 1.5;
      double bestQ = Double.NEGATIVE_INFINITY;
      int bestTau = -1;
      int bestKappa = -1;
      for (int tau = from + minSize; tau <= from + len - minSize; tau++) {
        for (int kappa = tau + minSize; kappa <= from + len; kappa++) {
          double q = EnergyStatistic.q(v, from, tau, kappa, alpha);
          if (q > bestQ + 1e-9) {
            bestQ = q;
            bestTau = tau;
            bestKappa = kappa;
          }
        }
      }
      EnergyStatistic.Split fast =
          EnergyStatistic.best(
              v, from, from + len, minSize, alpha, new double[len + 1], new double[len]);
      assertThat(fast.q())
          .as("trial %d", trial)
          .isCloseTo(bestQ, within(1e-9 * Math.max(1, bestQ)));
      assertThat(EnergyStatistic.q(v, from, fast.tau(), fast.kappa(), alpha))
          .isCloseTo(bestQ, within(1e-9 * Math.max(1, bestQ)));
      if (Math.abs(fast.q() - bestQ) > 1e-6) {
        assertThat(fast.tau()).isEqualTo(bestTau);
        assertThat(fast.kappa()).isEqualTo(bestKappa);
      }
    }
  }

  @Test
  void tooShortASegmentHasNoSplit() {
    double[] v = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    assertThat(EnergyStatistic.best(v, 0, 9, 5, 1.0, new double[10], new double[9]).exists())
        .isFalse();
  }
}
