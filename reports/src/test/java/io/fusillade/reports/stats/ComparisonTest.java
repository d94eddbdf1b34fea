package io.fusillade.reports.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ComparisonTest {

  private static final Metric P99 = Metric.lowerIsBetter("p99");
  private static final Metric RATE = Metric.higherIsBetter("rate");

  @Test
  void tenPercentSlowdownWithCv2PercentIsWorse() {
    for (int seed = 0; seed < 100; seed++) {
      Random random = new Random(seed);
      double[] baseline = Synthetic.normal(random, 5, 100, 0.02);
      double[] candidate = Synthetic.normal(random, 5, 110, 0.02);
      Comparison c = Comparison.compare(P99, baseline, candidate);
      assertThat(c.verdict()).as("seed %d: %s", seed, c.reason()).isEqualTo(Verdict.WORSE);
      assertThat(c.isWorse()).isTrue();
      assertThat(c.reason()).startsWith("p99 +").endsWith(": worse");
    }
  }

  @Test
  void tenPercentLessThroughputIsWorseAndMoreIsBetter() {
    Random random = new Random(7);
    double[] baseline = Synthetic.normal(random, 5, 1000, 0.02);
    double[] slower = Synthetic.normal(random, 5, 900, 0.02);
    double[] faster = Synthetic.normal(random, 5, 1100, 0.02);
    assertThat(Comparison.compare(RATE, baseline, slower).verdict()).isEqualTo(Verdict.WORSE);
    assertThat(Comparison.compare(RATE, baseline, faster).verdict()).isEqualTo(Verdict.BETTER);
    // the same numbers read as latencies swap the verdicts
    assertThat(Comparison.compare(P99, baseline, slower).verdict()).isEqualTo(Verdict.BETTER);
    assertThat(Comparison.compare(P99, baseline, faster).verdict()).isEqualTo(Verdict.WORSE);
  }

  @Test
  void aToAIsNoSignificantChangeInAtLeast95Of100Trials() {
    int unchanged = 0;
    for (int seed = 0; seed < 100; seed++) {
      Random random = new Random(1000 + seed);
      double[] baseline = Synthetic.normal(random, 5, 100, 0.02);
      double[] candidate = Synthetic.normal(random, 5, 100, 0.02);
      if (Comparison.compare(P99, baseline, candidate).verdict() == Verdict.NO_SIGNIFICANT_CHANGE) {
        unchanged++;
      }
    }
    assertThat(unchanged).isGreaterThanOrEqualTo(95);
  }

  @Test
  void aToAIsFlaggedAsSignificantAboutAlphaOfTheTimeWithoutAThreshold() {
    // Calibration of Welch's p-value: under no change, p < 0.05 in about 5% of trials.
    // Expected 100 of 2000 (sd ≈ 9.7); the bounds are about ±4 sd.
    Comparison.Settings noThreshold = Comparison.Settings.withThreshold(0);
    int significant = 0;
    Random random = new Random(42);
    for (int trial = 0; trial < 2000; trial++) {
      double[] baseline = Synthetic.normal(random, 5, 100, 0.02);
      double[] candidate = Synthetic.normal(random, 5, 100, 0.05); // unequal variances
      if (Comparison.compare(P99, baseline, candidate, noThreshold).significant()) {
        significant++;
      }
    }
    assertThat(significant).isBetween(60, 140);
  }

  @Test
  void significantButWithinTheThresholdIsNoSignificantChangeWithANote() {
    Random random = new Random(3);
    double[] baseline = Synthetic.normal(random, 10, 100, 0.005);
    double[] candidate = Synthetic.normal(random, 10, 102, 0.005);
    Comparison c = Comparison.compare(P99, baseline, candidate);
    assertThat(c.pValue()).isLessThan(0.001);
    assertThat(c.relativeChange()).isBetween(0.01, 0.03);
    assertThat(c.significant()).isTrue();
    assertThat(c.verdict()).isEqualTo(Verdict.NO_SIGNIFICANT_CHANGE);
    assertThat(c.reason())
        .endsWith(": no significant change (significant, but within the 5% threshold)");

    Comparison strict =
        Comparison.compare(P99, baseline, candidate, Comparison.Settings.withThreshold(0.01));
    assertThat(strict.verdict()).isEqualTo(Verdict.WORSE);
  }

  @Test
  void bigButNotSignificantIsNoSignificantChange() {
    // +36% from two noisy runs on each side: p = 0.26
    Comparison c = Comparison.compare(P99, new double[] {10, 12}, new double[] {13, 17});
    assertThat(c.significant()).isFalse();
    assertThat(c.verdict()).isEqualTo(Verdict.NO_SIGNIFICANT_CHANGE);
    assertThat(c.reason())
        .isEqualTo("p99 +36.4% [CI -76.9%, +275.9%], p=0.259: no significant change");
    assertThat(c.warnings())
        .hasSize(4)
        .anyMatch(w -> w.startsWith("baseline: fewer than 3 runs (n=2)"))
        .anyMatch(w -> w.startsWith("candidate: CV above 10%"));
  }

  @Test
  void reasonTextOfAKnownSample() {
    // scipy 1.17.1 ttest_ind(equal_var=False): p = 0.000202; Fieller [+6.5%, +13.1%] (see
    // WelchTestTest)
    double[] base = {101.2, 99.8, 100.5, 98.9, 100.1};
    double[] cand = {108.4, 112.9, 105.1, 110.3, 115.6, 107.2, 109.8};
    Comparison c = Comparison.compare(P99, base, cand);
    assertThat(c.reason()).isEqualTo("p99 +9.8% [CI +6.5%, +13.1%], p=0.0002: worse");
    assertThat(c.warnings()).isEmpty();
    assertThat(c.test().confidence()).isEqualTo(0.95);
  }

  @Test
  void notEnoughRunsCannotBeWorse() {
    Comparison c = Comparison.compare(P99, new double[] {100}, new double[] {150, 151, 149});
    assertThat(c.verdict()).isEqualTo(Verdict.NO_SIGNIFICANT_CHANGE);
    assertThat(c.significant()).isFalse();
    assertThat(c.reason())
        .isEqualTo(
            "p99 +50.0% [CI unbounded], p=n/a: no significant change (not enough runs to test:"
                + " baseline n=1, candidate n=3)");
  }

  @Test
  void errorsFromZeroAreWorseWhenSignificant() {
    Metric errors = Metric.lowerIsBetter("errors");
    Comparison c =
        Comparison.compare(
            errors, new double[] {0, 0, 0, 0, 0}, new double[] {0.010, 0.012, 0.011, 0.009, 0.013});
    assertThat(c.relativeChange()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(c.verdict()).isEqualTo(Verdict.WORSE);
    // zero variance on the baseline: a one-sample test of the candidate against 0;
    // scipy.stats.ttest_1samp([0.010, 0.012, 0.011, 0.009, 0.013], 0): p = 9.968968587183497e-05
    assertThat(c.pValue()).isCloseTo(9.968968587183497e-05, within(1e-12));
    assertThat(c.reason()).isEqualTo("errors 0 → 0.011 (baseline mean is 0), p<0.0001: worse");

    Comparison none = Comparison.compare(errors, new double[] {0, 0, 0}, new double[] {0, 0, 0});
    assertThat(none.verdict()).isEqualTo(Verdict.NO_SIGNIFICANT_CHANGE);
    assertThat(none.pValue()).isEqualTo(1);
  }

  @Test
  void alphaDrivesSignificanceAndTheIntervalLevel() {
    // sleep data: p = 0.0794, significant at 0.10 but not at 0.05
    double[] g1 = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
    double[] g2 = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};
    Metric hours = Metric.higherIsBetter("extra sleep");
    assertThat(Comparison.compare(hours, g2, g1).verdict())
        .isEqualTo(Verdict.NO_SIGNIFICANT_CHANGE);
    Comparison loose = Comparison.compare(hours, g2, g1, new Comparison.Settings(0.10, 0.05, 0.10));
    assertThat(loose.verdict()).isEqualTo(Verdict.WORSE);
    assertThat(loose.test().confidence()).isEqualTo(0.90);
  }

  @Test
  void rejectsBadSettings() {
    assertThatThrownBy(() -> new Comparison.Settings(0, 0.05, 0.1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Comparison.Settings(0.05, -0.01, 0.1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Metric.lowerIsBetter(" "))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
