package io.fusillade.topic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LagTrendTest {
  private static List<LagTrend.Sample> series(
      int seconds, double base, double slope, double noise) {
    Random random = new Random(7);
    List<LagTrend.Sample> out = new ArrayList<>();
    for (int t = 0; t < seconds; t++) {
      out.add(
          new LagTrend.Sample(t, Math.max(0, base + slope * t + noise * random.nextGaussian())));
    }
    return out;
  }

  @Test
  void aNoisyButLevelLagIsFlat() {
    LagTrend.Result r = LagTrend.of(series(60, 20, 0, 10), 2000);
    assertThat(r.verdict()).isEqualTo(LagTrend.Verdict.FLAT);
    assertThat(r.notGrowing()).isTrue();
    assertThat(r.samples()).isEqualTo(30);
  }

  @Test
  void aHighButConstantLagIsFlat() {
    assertThat(LagTrend.of(series(30, 50_000, 0, 100), 2000).verdict())
        .isEqualTo(LagTrend.Verdict.FLAT);
  }

  @Test
  void lagGrowingAtAQuarterOfTheRateIsGrowing() {
    LagTrend.Result r = LagTrend.of(series(20, 0, 500, 50), 2000);
    assertThat(r.verdict()).isEqualTo(LagTrend.Verdict.GROWING);
    assertThat(r.slopePerSecond()).isBetween(450.0, 550.0);
    assertThat(r.pValue()).isLessThan(LagTrend.ALPHA);
    assertThat(r.notGrowing()).isFalse();
  }

  @Test
  void aSignificantButTinyGrowthIsNotMaterial() {
    // 5 messages/s more lag each second, at 2000 messages/s: below the 1% threshold (20/s).
    LagTrend.Result r = LagTrend.of(series(60, 10, 5, 1), 2000);
    assertThat(r.pValue()).isLessThan(LagTrend.ALPHA);
    assertThat(r.verdict()).isEqualTo(LagTrend.Verdict.FLAT);
  }

  @Test
  void growthOnlyInTheFirstHalfIsIgnored() {
    List<LagTrend.Sample> s = new ArrayList<>();
    for (int t = 0; t < 40; t++) {
      s.add(new LagTrend.Sample(t, t < 20 ? t * 1000 : 20_000 + (t % 2) * 5));
    }
    assertThat(LagTrend.of(s, 2000).verdict()).isEqualTo(LagTrend.Verdict.FLAT);
  }

  @Test
  void tooFewSamplesGiveNoVerdictAndTheCheckDoesNotPass() {
    LagTrend.Result r = LagTrend.of(series(8, 0, 1000, 0), 2000);
    assertThat(r.verdict()).isEqualTo(LagTrend.Verdict.UNKNOWN);
    assertThat(r.notGrowing()).isFalse();
  }
}
