package io.fusillade.reports.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * Reference values computed independently with Python 3.11, scipy 1.17.1 and numpy 2.4.6: {@code
 * scipy.stats.t.interval(confidence, n - 1, loc=mean, scale=scipy.stats.sem(x))}, cross-checked
 * with {@code scipy.stats.ttest_1samp(x, 0).confidence_interval(confidence)} (identical to the last
 * digit).
 */
class ConfidenceIntervalTest {

  private static final double TOLERANCE = 1e-7;

  @Test
  void fiveRunsAt95And99Percent() {
    double[] x = {10.2, 9.8, 10.5, 10.1, 9.9};
    ConfidenceInterval ci95 = ConfidenceInterval.studentT(x, 0.95);
    assertThat(ci95.lower()).isCloseTo(9.759956309670873, within(TOLERANCE));
    assertThat(ci95.upper()).isCloseTo(10.440043690329126, within(TOLERANCE));
    assertThat(ci95.mean()).isCloseTo(10.1, within(1e-12));
    assertThat(ci95.coefficientOfVariation()).isCloseTo(0.02711497809431512, within(1e-12));
    assertThat(ci95.warnings()).isEmpty();
    assertThat(ci95.defined()).isTrue();
    assertThat(ci95.contains(10.0)).isTrue();
    assertThat(ci95.contains(10.5)).isFalse();

    ConfidenceInterval ci99 = ConfidenceInterval.studentT(x, 0.99);
    assertThat(ci99.lower()).isCloseTo(9.536115841891379, within(TOLERANCE));
    assertThat(ci99.upper()).isCloseTo(10.66388415810862, within(TOLERANCE));
  }

  @Test
  void tenRunsOfThroughput() {
    double[] x = {5050, 5420, 4900, 5600, 5150, 4980, 5500, 5210, 5330, 4870};
    ConfidenceInterval ci = ConfidenceInterval.studentT(x, 0.95);
    assertThat(ci.lower()).isCloseTo(5018.2002195141695, within(1e-5));
    assertThat(ci.upper()).isCloseTo(5383.7997804858305, within(1e-5));
    assertThat(ci.coefficientOfVariation()).isCloseTo(0.04913218087242359, within(1e-12));
    assertThat(ci.halfWidth())
        .isCloseTo((5383.7997804858305 - 5018.2002195141695) / 2, within(1e-5));
    assertThat(ci.relativeHalfWidth()).isCloseTo(ci.halfWidth() / 5201.0, within(1e-12));
    assertThat(ci.warnings()).isEmpty();
  }

  @Test
  void highVariationAt90PercentWarns() {
    // R's "sleep" data, group 1
    double[] x = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
    ConfidenceInterval ci = ConfidenceInterval.studentT(x, 0.90);
    assertThat(ci.lower()).isCloseTo(-0.2870552787292595, within(TOLERANCE));
    assertThat(ci.upper()).isCloseTo(1.7870552787292593, within(TOLERANCE));
    assertThat(ci.highVariation()).isTrue();
    assertThat(ci.tooFewRuns()).isFalse();
    assertThat(ci.warnings()).singleElement().asString().startsWith("CV above 10% (238.5%)");
  }

  @Test
  void twoRunsGiveAWideIntervalAndAWarning() {
    // t(0.975, 1) = 12.706...: 102 ± 25.41
    ConfidenceInterval ci = ConfidenceInterval.studentT(new double[] {100, 104}, 0.95);
    assertThat(ci.lower()).isCloseTo(76.5875905276506, within(TOLERANCE));
    assertThat(ci.upper()).isCloseTo(127.4124094723494, within(TOLERANCE));
    assertThat(ci.defined()).isTrue();
    assertThat(ci.tooFewRuns()).isTrue();
    assertThat(ci.warnings()).singleElement().asString().startsWith("fewer than 3 runs (n=2)");
  }

  @Test
  void oneRunIsUndefinedAndFlagged() {
    ConfidenceInterval ci = ConfidenceInterval.studentT(new double[] {100}, 0.95);
    assertThat(ci.defined()).isFalse();
    assertThat(ci.lower()).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(ci.upper()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(ci.halfWidth()).isInfinite();
    assertThat(ci.mean()).isEqualTo(100);
    assertThat(ci.tooFewRuns()).isTrue();
    assertThat(ci.warnings())
        .singleElement()
        .asString()
        .contains("fewer than 3 runs (n=1)", "undefined");
  }

  @Test
  void cvThresholdIsAParameter() {
    double[] x = {10.2, 9.8, 10.5, 10.1, 9.9}; // CV 2.7%
    assertThat(ConfidenceInterval.studentT(x, 0.95, 0.02).highVariation()).isTrue();
    assertThat(ConfidenceInterval.studentT(x, 0.95, 0.02).warnings())
        .singleElement()
        .asString()
        .startsWith("CV above 2% (2.7%)");
    assertThat(ConfidenceInterval.studentT(x, 0.95, 0.03).highVariation()).isFalse();
  }

  @Test
  void identicalRunsGiveAPointInterval() {
    ConfidenceInterval ci = ConfidenceInterval.studentT(new double[] {7, 7, 7}, 0.95);
    assertThat(ci.lower()).isEqualTo(7);
    assertThat(ci.upper()).isEqualTo(7);
    assertThat(ci.warnings()).isEmpty();
  }

  @Test
  void rejectsABadConfidence() {
    assertThatThrownBy(() -> ConfidenceInterval.studentT(new double[] {1, 2}, 95))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("confidence");
    assertThatThrownBy(() -> ConfidenceInterval.studentT(new double[] {1, 2}, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aLatencysIntervalOnTheLogScaleIsNeverBelowZero() {
    // three p99s of 5, 8 and 95 ms: the linear interval reaches -91 ms, a latency no run has
    double[] x = {5, 8, 95};
    assertThat(ConfidenceInterval.studentT(x, 0.95).lower()).isNegative();
    ConfidenceInterval ci = ConfidenceInterval.logScale(x, 0.95, 0.10);
    // exp(mean(ln x) ± t(0.975, 2) · sd(ln x)/√3), computed with Python's math and statistics
    assertThat(ci.log()).isTrue();
    assertThat(ci.mean()).isCloseTo(15.604907507078847, within(1e-9)); // the geometric mean
    assertThat(ci.lower()).isCloseTo(0.3066824888369834, within(1e-9));
    assertThat(ci.upper()).isCloseTo(794.0236145465894, within(1e-6));
    assertThat(ci.highVariation()).isTrue();
    // a zero among the values: the linear interval, cut at 0
    ConfidenceInterval withZero = ConfidenceInterval.logScale(new double[] {0, 1, 50}, 0.95, 0.1);
    assertThat(withZero.log()).isFalse();
    assertThat(withZero.lower()).isZero();
  }
}
