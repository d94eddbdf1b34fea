package io.fusillade.reports.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SteppedComparisonTest {

  private static final Metric TIME = Metric.lowerIsBetter("time");
  private static final double[] LEVELS = {1, 4, 8, 12, 16, 20, 24, 28, 32, 64, 100};

  @Test
  void singleSeriesGivesTheChangePerLevelAndTheMedian() {
    // one value per level and side; the candidate's changes are +10, +20, ... +110%
    Map<Double, double[]> baseline = new LinkedHashMap<>();
    Map<Double, double[]> candidate = new LinkedHashMap<>();
    for (int i = 0; i < LEVELS.length; i++) {
      double base = 100 + 10 * LEVELS[i];
      baseline.put(LEVELS[i], new double[] {base});
      candidate.put(LEVELS[i], new double[] {base * (1 + 0.1 * (i + 1))});
    }
    SteppedComparison s = SteppedComparison.compare(TIME, baseline, candidate);
    assertThat(s.levels()).hasSize(11);
    assertThat(s.levels().get(0).level()).isEqualTo(1);
    assertThat(s.levels().get(10).level()).isEqualTo(100);
    for (int i = 0; i < LEVELS.length; i++) {
      assertThat(s.levels().get(i).relativeChange()).isCloseTo(0.1 * (i + 1), within(1e-12));
    }
    assertThat(s.medianRelativeChange()).isCloseTo(0.6, within(1e-12));
    assertThat(s.medianRelativeChangePercent()).isCloseTo(60, within(1e-9));
    // one series per side: nothing can be tested per level
    assertThat(s.count(Verdict.NO_SIGNIFICANT_CHANGE)).isEqualTo(11);
    assertThat(s.summary())
        .isEqualTo(
            "time: median +60.0% over 11 levels (worse at 0, better at 0, no significant change at"
                + " 11)");
  }

  @Test
  void threeSeriesPerLevelAreTestedPerLevel() {
    Random random = new Random(11);
    Map<Double, double[]> baseline = new LinkedHashMap<>();
    Map<Double, double[]> candidate = new LinkedHashMap<>();
    for (double level : LEVELS) {
      double base = 50 * level;
      baseline.put(level, Synthetic.normal(random, 3, base, 0.02));
      // the candidate is 50% slower, except at the two lowest levels where nothing changes
      double factor = level <= 4 ? 1.0 : 1.5;
      candidate.put(level, Synthetic.normal(random, 3, base * factor, 0.02));
    }
    SteppedComparison s = SteppedComparison.compare(TIME, baseline, candidate);
    assertThat(s.count(Verdict.WORSE)).isEqualTo(9);
    assertThat(s.levels().get(0).comparison().verdict()).isEqualTo(Verdict.NO_SIGNIFICANT_CHANGE);
    assertThat(s.medianRelativeChange()).isCloseTo(0.5, within(0.03));
  }

  @Test
  void levelsOnOneSideOnlyAreListedNotDropped() {
    Map<Double, double[]> baseline = new LinkedHashMap<>();
    baseline.put(8.0, new double[] {10});
    baseline.put(1.0, new double[] {4});
    baseline.put(4.0, new double[] {6});
    baseline.put(100.0, new double[] {80});
    Map<Double, double[]> candidate = new LinkedHashMap<>();
    candidate.put(1.0, new double[] {5});
    candidate.put(4.0, new double[] {9});
    candidate.put(8.0, new double[] {11});
    candidate.put(2.5, new double[] {7});
    SteppedComparison s = SteppedComparison.compare(TIME, baseline, candidate);
    assertThat(s.levels())
        .extracting(SteppedComparison.Level::level)
        .containsExactly(1.0, 4.0, 8.0);
    assertThat(s.baselineOnly()).containsExactly(100.0);
    assertThat(s.candidateOnly()).containsExactly(2.5);
    // changes +25%, +50%, +10%: median of an odd count
    assertThat(s.medianRelativeChange()).isCloseTo(0.25, within(1e-12));
    assertThat(s.summary()).endsWith("; only in the baseline: 100; only in the candidate: 2.5");
  }

  @Test
  void medianOfAnEvenCountAndNoCommonLevel() {
    Map<Double, double[]> baseline = Map.of(1.0, new double[] {10}, 2.0, new double[] {10});
    Map<Double, double[]> candidate = Map.of(1.0, new double[] {11}, 2.0, new double[] {14});
    assertThat(SteppedComparison.compare(TIME, baseline, candidate).medianRelativeChange())
        .isCloseTo(0.25, within(1e-12));

    SteppedComparison none =
        SteppedComparison.compare(
            TIME, Map.of(1.0, new double[] {1}), Map.of(2.0, new double[] {1}));
    assertThat(none.levels()).isEmpty();
    assertThat(none.medianRelativeChange()).isNaN();
  }
}
