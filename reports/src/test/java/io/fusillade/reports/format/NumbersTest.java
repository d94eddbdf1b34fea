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
    assertThat(Numbers.number(1234.5)).isEqualTo("1,235");
    assertThat(Numbers.number(Double.NaN)).isEqualTo("-");
  }

  @Test
  void largeNumbersAreGroupedAndTinyOnesWrittenInPlainDecimals() {
    // the console once printed p99 1.11e+03 ms
    assertThat(Numbers.number(1110.4)).isEqualTo("1,110");
    assertThat(Numbers.number(-123456)).isEqualTo("-123,456");
    assertThat(Numbers.number(0.000012)).isEqualTo("0.000012");
    assertThat(Numbers.number(0.00012345)).isEqualTo("0.00012");
    assertThat(Numbers.count(12204)).isEqualTo("12,204");
  }
}
