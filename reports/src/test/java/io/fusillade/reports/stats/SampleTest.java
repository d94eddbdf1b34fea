package io.fusillade.reports.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SampleTest {

  @Test
  void describesValues() {
    // numpy 2.4.6: mean, std(ddof=1), median of [10.2, 9.8, 10.5, 10.1, 9.9]
    Sample s = Sample.of(10.2, 9.8, 10.5, 10.1, 9.9);
    assertThat(s.n()).isEqualTo(5);
    assertThat(s.mean()).isCloseTo(10.1, within(1e-12));
    assertThat(s.standardDeviation()).isCloseTo(0.2738612787525827, within(1e-12));
    assertThat(s.median()).isCloseTo(10.1, within(1e-12));
    assertThat(s.min()).isEqualTo(9.8);
    assertThat(s.max()).isEqualTo(10.5);
    assertThat(s.coefficientOfVariation()).isCloseTo(0.02711497809431512, within(1e-12));
    assertThat(s.standardError()).isCloseTo(0.2738612787525827 / Math.sqrt(5), within(1e-12));
  }

  @Test
  void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    // numpy.median of the R "sleep" group 1 values: 0.35
    Sample s = Sample.of(0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0);
    assertThat(s.median()).isCloseTo(0.35, within(1e-12));
    assertThat(s.mean()).isCloseTo(0.75, within(1e-12));
    assertThat(s.standardDeviation()).isCloseTo(1.7890096577591623, within(1e-12));
  }

  @Test
  void isAccurateFarFromZero() {
    Sample s = Sample.of(1e9 + 1, 1e9 + 2, 1e9 + 3);
    assertThat(s.mean()).isEqualTo(1e9 + 2);
    assertThat(s.standardDeviation()).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void oneValueHasNoSpread() {
    Sample s = Sample.of(42);
    assertThat(s.mean()).isEqualTo(42);
    assertThat(s.median()).isEqualTo(42);
    assertThat(s.standardDeviation()).isNaN();
    assertThat(s.coefficientOfVariation()).isNaN();
  }

  @Test
  void coefficientOfVariationAroundZero() {
    assertThat(Sample.of(0, 0, 0).coefficientOfVariation()).isZero();
    assertThat(Sample.of(-1, 1).coefficientOfVariation()).isInfinite();
  }

  @Test
  void rejectsEmptyAndNonFinite() {
    assertThatThrownBy(() -> Sample.of()).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Sample.of(1, Double.NaN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("value 1");
    assertThatThrownBy(() -> Sample.of(Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
