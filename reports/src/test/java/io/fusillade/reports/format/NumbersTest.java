package io.fusillade.reports.format;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NumbersTest {
  @Test
  void numbersKeepThreeSignificantDigitsWithoutScientificNotation() {
    assertThat(Numbers.number(0)).isEqualTo("0");
    assertThat(Numbers.number(0.15432)).isEqualTo("0.154");
    assertThat(Numbers.number(1.9449)).isEqualTo("1.94");
    assertThat(Numbers.number(13.64)).isEqualTo("13.6");
    assertThat(Numbers.number(1234.5)).isEqualTo("1235");
    assertThat(Numbers.number(Double.NaN)).isEqualTo("-");
  }
}
