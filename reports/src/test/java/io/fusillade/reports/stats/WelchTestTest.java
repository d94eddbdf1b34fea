package io.fusillade.reports.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;

/**
 * Reference values computed independently with Python 3.11, scipy 1.17.1, numpy 2.4.6: {@code r =
 * scipy.stats.ttest_ind(candidate, baseline, equal_var=False)}, giving {@code r.statistic}, {@code
 * r.df}, {@code r.pvalue} and {@code r.confidence_interval(confidence)}. The Fieller bounds of the
 * relative change were computed in the same Python session from the closed form (the roots of
 * {@code (m_b² - t² se_b²) ρ² - 2 m_b m_c ρ + (m_c² - t² se_c²)}, with {@code t =
 * scipy.stats.t.ppf(0.5 + confidence / 2, r.df)}), and are also checked below by inverting the
 * Fieller statistic numerically.
 */
class WelchTestTest {

  private static final double[] SLEEP_GROUP_1 = {
    0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0
  };
  private static final double[] SLEEP_GROUP_2 = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};

  @Test
  void matchesRsWelchTestOnTheSleepData() {
    // R's documented output of t.test(extra ~ group, data = sleep), group 1 minus group 2:
    //   t = -1.8608, df = 17.776, p-value = 0.07939,
    //   95 percent confidence interval: -3.3654832  0.2054832
    // scipy 1.17.1 agrees to all printed digits: t=-1.8608134674868526 df=17.776473516178488
    //   p=0.0793941401873583 ci=(-3.3654832307117104, 0.20548323071171137)
    WelchTest w = WelchTest.of(SLEEP_GROUP_2, SLEEP_GROUP_1, 0.95);
    assertThat(w.difference()).isCloseTo(-1.58, within(1e-12));
    assertThat(w.tStatistic()).isCloseTo(-1.8608134674868526, within(1e-10));
    assertThat(w.degreesOfFreedom()).isCloseTo(17.776473516178488, within(1e-9));
    assertThat(w.pValue()).isCloseTo(0.0793941401873583, within(1e-10));
    assertThat(w.lower()).isCloseTo(-3.3654832307117104, within(1e-7));
    assertThat(w.upper()).isCloseTo(0.20548323071171137, within(1e-7));
    assertThat(w.relativeChange()).isCloseTo(-0.6781115879828326, within(1e-12));
    assertThat(w.relativeLower()).isCloseTo(-1.2015086073110395, within(1e-7));
    assertThat(w.relativeUpper()).isCloseTo(0.15742324559172038, within(1e-7));
    assertThat(w.defined()).isTrue();
    assertThat(w.significant(0.05)).isFalse();
    assertThat(w.significant(0.10)).isTrue();
  }

  @Test
  void unequalSizesAndVariancesLatency5vs7() {
    double[] base = {101.2, 99.8, 100.5, 98.9, 100.1};
    double[] cand = {108.4, 112.9, 105.1, 110.3, 115.6, 107.2, 109.8};
    WelchTest w = WelchTest.of(base, cand, 0.95);
    assertThat(w.tStatistic()).isCloseTo(7.086174411863158, within(1e-10));
    assertThat(w.degreesOfFreedom()).isCloseTo(6.954552664375542, within(1e-9));
    assertThat(w.pValue()).isCloseTo(0.00020210336957746306, within(1e-12));
    assertThat(w.lower()).isCloseTo(6.525447276905291, within(1e-7));
    assertThat(w.upper()).isCloseTo(13.074552723094703, within(1e-7));
    assertThat(w.difference()).isCloseTo(9.8, within(1e-12));
    assertThat(w.relativeChange()).isCloseTo(0.09790209790209792, within(1e-12));
    assertThat(w.relativeChangePercent()).isCloseTo(9.790209790209792, within(1e-10));
    assertThat(w.relativeLower()).isCloseTo(0.06502320258709937, within(1e-8));
    assertThat(w.relativeUpper()).isCloseTo(0.13095915075049214, within(1e-8));

    WelchTest w99 = WelchTest.of(base, cand, 0.99);
    assertThat(w99.pValue()).isCloseTo(0.00020210336957746306, within(1e-12));
    assertThat(w99.lower()).isCloseTo(4.949509898541345, within(1e-7));
    assertThat(w99.upper()).isCloseTo(14.650490101458649, within(1e-7));
    assertThat(w99.relativeLower()).isCloseTo(0.0492605862020945, within(1e-8));
    assertThat(w99.relativeUpper()).isCloseTo(0.14693455269268085, within(1e-8));
  }

  @Test
  void unequalSizesAndVariancesThroughput3vs10() {
    double[] base = {5230, 5310, 5180};
    double[] cand = {5050, 5420, 4900, 5600, 5150, 4980, 5500, 5210, 5330, 4870};
    WelchTest w = WelchTest.of(base, cand, 0.95);
    assertThat(w.tStatistic()).isCloseTo(-0.4370389955376217, within(1e-10));
    assertThat(w.degreesOfFreedom()).isCloseTo(10.999753982755795, within(1e-9));
    assertThat(w.pValue()).isCloseTo(0.6705389863757051, within(1e-10));
    assertThat(w.lower()).isCloseTo(-235.4096026957363, within(1e-5));
    assertThat(w.upper()).isCloseTo(157.4096026957363, within(1e-5));
    assertThat(w.relativeChange()).isCloseTo(-0.0074427480916030575, within(1e-12));
    assertThat(w.relativeLower()).isCloseTo(-0.044629946870340054, within(1e-8));
    assertThat(w.relativeUpper()).isCloseTo(0.03024658121779722, within(1e-8));
  }

  @Test
  void equalSizesNotSignificant() {
    WelchTest w =
        WelchTest.of(
            new double[] {20.1, 19.7, 20.4, 20.0}, new double[] {20.3, 19.9, 20.6, 20.2}, 0.95);
    assertThat(w.tStatistic()).isCloseTo(0.9797958971132834, within(1e-10));
    assertThat(w.degreesOfFreedom()).isCloseTo(6.0, within(1e-9));
    assertThat(w.pValue()).isCloseTo(0.3650257208529587, within(1e-10));
    assertThat(w.lower()).isCloseTo(-0.29947379007284813, within(1e-7));
    assertThat(w.upper()).isCloseTo(0.6994737900728538, within(1e-7));
    assertThat(w.relativeLower()).isCloseTo(-0.014753269059029406, within(1e-8));
    assertThat(w.relativeUpper()).isCloseTo(0.03533035699225451, within(1e-8));
  }

  @Test
  void twoRunsEachWithFractionalDegreesOfFreedom() {
    WelchTest w = WelchTest.of(new double[] {10, 12}, new double[] {13, 17}, 0.95);
    assertThat(w.tStatistic()).isCloseTo(1.7888543819998317, within(1e-10));
    assertThat(w.degreesOfFreedom()).isCloseTo(1.4705882352941178, within(1e-9));
    assertThat(w.pValue()).isCloseTo(0.2585321337078272, within(1e-9));
    assertThat(w.lower()).isCloseTo(-9.837045660142127, within(1e-6));
    assertThat(w.upper()).isCloseTo(17.837045660142127, within(1e-6));
    assertThat(w.relativeLower()).isCloseTo(-0.7689579328194881, within(1e-7));
    assertThat(w.relativeUpper()).isCloseTo(2.7589354246973214, within(1e-7));
  }

  @Test
  void fiellerBoundsSolveTheFiellerEquation() {
    double[] base = {101.2, 99.8, 100.5, 98.9, 100.1};
    double[] cand = {108.4, 112.9, 105.1, 110.3, 115.6, 107.2, 109.8};
    WelchTest w = WelchTest.of(base, cand, 0.95);
    Sample b = Sample.of(base);
    Sample c = Sample.of(cand);
    double t = new TDistribution(w.degreesOfFreedom()).inverseCumulativeProbability(0.975);
    for (double bound : new double[] {w.relativeLower(), w.relativeUpper()}) {
      double rho = bound + 1;
      double stat =
          Math.abs(c.mean() - rho * b.mean())
              / Math.sqrt(c.variance() / c.n() + rho * rho * b.variance() / b.n());
      assertThat(stat).isCloseTo(t, within(1e-9));
    }
    // asymmetric around the point estimate, as a ratio's interval is
    assertThat(w.relativeUpper() - w.relativeChange())
        .isNotCloseTo(w.relativeChange() - w.relativeLower(), within(1e-6));
  }

  @Test
  void relativeIntervalExcludesZeroExactlyWhenSignificant() {
    double[][] bases = {SLEEP_GROUP_2, {101.2, 99.8, 100.5, 98.9, 100.1}, {20.1, 19.7, 20.4, 20.0}};
    double[][] cands = {
      SLEEP_GROUP_1, {108.4, 112.9, 105.1, 110.3, 115.6, 107.2, 109.8}, {20.3, 19.9, 20.6, 20.2}
    };
    for (double confidence : new double[] {0.80, 0.90, 0.95, 0.99}) {
      for (int i = 0; i < bases.length; i++) {
        WelchTest w = WelchTest.of(bases[i], cands[i], confidence);
        boolean excludesZero = w.relativeLower() > 0 || w.relativeUpper() < 0;
        boolean differenceExcludesZero = w.lower() > 0 || w.upper() < 0;
        assertThat(excludesZero).isEqualTo(w.significant(1 - confidence));
        assertThat(differenceExcludesZero).isEqualTo(w.significant(1 - confidence));
      }
    }
  }

  @Test
  void fewerThanTwoRunsOnASideIsUndefined() {
    WelchTest w = WelchTest.of(new double[] {100}, new double[] {110, 111, 109}, 0.95);
    assertThat(w.defined()).isFalse();
    assertThat(w.pValue()).isNaN();
    assertThat(w.tStatistic()).isNaN();
    assertThat(w.degreesOfFreedom()).isNaN();
    assertThat(w.lower()).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(w.upper()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(w.relativeIntervalBounded()).isFalse();
    assertThat(w.difference()).isCloseTo(10, within(1e-12));
    assertThat(w.relativeChange()).isCloseTo(0.10, within(1e-12));
    assertThat(w.significant(0.05)).isFalse();
  }

  @Test
  void zeroVarianceOnBothSides() {
    WelchTest same = WelchTest.of(new double[] {5, 5, 5}, new double[] {5, 5}, 0.95);
    assertThat(same.pValue()).isEqualTo(1);
    assertThat(same.tStatistic()).isZero();
    assertThat(same.lower()).isZero();
    assertThat(same.upper()).isZero();
    assertThat(same.relativeLower()).isCloseTo(0, within(1e-15));
    assertThat(same.relativeUpper()).isCloseTo(0, within(1e-15));

    WelchTest shifted = WelchTest.of(new double[] {5, 5, 5}, new double[] {6, 6}, 0.95);
    assertThat(shifted.pValue()).isZero();
    assertThat(shifted.tStatistic()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(shifted.lower()).isEqualTo(1);
    assertThat(shifted.upper()).isEqualTo(1);
    assertThat(shifted.relativeLower()).isCloseTo(0.2, within(1e-12));
    assertThat(shifted.relativeUpper()).isCloseTo(0.2, within(1e-12));
  }

  @Test
  void zeroVarianceOnOneSideUsesTheOthersDegreesOfFreedom() {
    WelchTest w = WelchTest.of(new double[] {0, 0, 0, 0}, new double[] {1, 2, 3}, 0.95);
    assertThat(w.degreesOfFreedom()).isCloseTo(2, within(1e-12));
    // one-sample t-test of {1, 2, 3} against 0: t = 2 / (1 / √3) = 3.4641, df 2
    assertThat(w.tStatistic()).isCloseTo(2 * Math.sqrt(3), within(1e-12));
    // scipy.stats.ttest_1samp([1, 2, 3], 0): pvalue=0.07417990022744854
    assertThat(w.pValue()).isCloseTo(0.07417990022744854, within(1e-10));
    assertThat(w.relativeChange()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(w.relativeIntervalBounded()).isFalse();
  }
}
