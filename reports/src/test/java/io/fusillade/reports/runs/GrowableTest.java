package io.fusillade.reports.runs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GrowableTest {
  @Test
  void aSecondWithTwoValuesHoldsTheirSum() {
    double[] s = Growable.sum(new double[0], 3, 22);
    s = Growable.sum(s, 3, 22);
    assertThat(s[3]).isEqualTo(44);
    assertThat(s[2]).isNaN();
  }

  @Test
  void maxKeepsTheLargerAndGrowsWithNaN() {
    double[] s = Growable.max(new double[0], 1, 5);
    s = Growable.max(s, 1, 3);
    assertThat(s[1]).isEqualTo(5);
    assertThat(s[0]).isNaN();
  }
}
