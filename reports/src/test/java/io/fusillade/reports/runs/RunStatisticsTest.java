package io.fusillade.reports.runs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.reports.stats.Comparison;
import io.fusillade.reports.stats.Verdict;
import io.fusillade.reports.stats.changepoint.ChangePoint;
import io.fusillade.reports.stats.changepoint.ChangePoints;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** intervals, compare and trend on synthetic run records, read back through the record path. */
class RunStatisticsTest {
  @TempDir Path base;

  /** Runs whose median latency is {@code median · (1 + cv · N(0,1))}. */
  private List<RunData> runs(String side, int n, double median, double cv, Random random)
      throws Exception {
    List<Path> dirs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double m = median * (1 + cv * random.nextGaussian());
      dirs.add(
          SyntheticRecord.run()
              .seed(random.nextLong())
              .start(1_800_000_000_000L + i * 60_000L)
              .seconds(8)
              .rate(400)
              .median(m)
              .write(base.resolve(side), side + "-" + i));
    }
    return RunMetrics.load(List.of(base.resolve(side)));
  }

  @Test
  void aTenPercentSlowdownOverFiveRunsWithTwoPercentCvIsWorse() throws Exception {
    Random random = new Random(10);
    List<RunData> baseline = runs("base", 5, 2_000, 0.02, random);
    List<RunData> candidate = runs("cand", 5, 2_200, 0.02, random);
    RunComparison comparison =
        RunComparison.of(baseline, candidate, Comparison.Settings.DEFAULTS, RunComparison.LEVEL);
    assertThat(comparison.anyWorse()).isTrue();
    Comparison p50 =
        comparison.comparisons().stream()
            .filter(c -> c.metric().name().equals("p50"))
            .findFirst()
            .orElseThrow();
    assertThat(p50.verdict()).isEqualTo(Verdict.WORSE);
    assertThat(p50.relativeChange()).isBetween(0.07, 0.13);
    assertThat(comparison.render()).contains("WORSE").contains("Verdict: WORSE");
    Comparison rate =
        comparison.comparisons().stream()
            .filter(c -> c.metric().name().equals("rate"))
            .findFirst()
            .orElseThrow();
    assertThat(rate.verdict()).isEqualTo(Verdict.NO_SIGNIFICANT_CHANGE);
  }

  @Tag("slow") // writes and reads 1,000 run records: 10 to 15 s
  @Test
  void aaComparisonsFindNoSignificantChangeInAtLeast95Of100Trials() throws Exception {
    int clean = 0;
    for (int trial = 0; trial < 100; trial++) {
      Random random = new Random(1000 + trial);
      List<RunData> a = runs("a" + trial, 5, 2_000, 0.02, random);
      List<RunData> b = runs("b" + trial, 5, 2_000, 0.02, random);
      RunComparison c = RunComparison.of(a, b, Comparison.Settings.DEFAULTS, RunComparison.LEVEL);
      if (c.comparisons().stream().allMatch(x -> x.verdict() == Verdict.NO_SIGNIFICANT_CHANGE)) {
        clean++;
      }
    }
    assertThat(clean).isGreaterThanOrEqualTo(95);
  }

  @Test
  void intervalsGiveMeanCiAndCvAndWarnOnFewRuns() throws Exception {
    Random random = new Random(5);
    List<RunData> runs = runs("iv", 4, 2_000, 0.02, random);
    Intervals intervals = Intervals.of(runs, 0.95, 0.10);
    Intervals.Row p50 =
        intervals.rows().stream()
            .filter(r -> r.metric().metric().name().equals("p50"))
            .findFirst()
            .orElseThrow();
    double[] values = runs.stream().mapToDouble(r -> RunMetrics.of(r).get("p50").value()).toArray();
    // a latency: the interval of the geometric mean, on the log scale
    double mean = Math.exp(java.util.Arrays.stream(values).map(Math::log).average().orElseThrow());
    assertThat(p50.interval().log()).isTrue();
    assertThat(p50.interval().mean()).isEqualTo(mean, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(p50.interval().lower()).isLessThan(mean).isPositive();
    assertThat(intervals.render()).contains("geometric mean, log-scale CI");
    assertThat(p50.interval().coefficientOfVariation()).isBetween(0.002, 0.06);
    assertThat(intervals.warnings()).isEmpty();
    assertThat(Intervals.of(runs.subList(0, 2), 0.95, 0.1).warnings())
        .singleElement()
        .asString()
        .contains("fewer than 3");
  }

  @Test
  void steppedRunsAreComparedLevelByLevelWithTheMedianChange() throws Exception {
    Random random = new Random(8);
    List<Path> b = new ArrayList<>();
    List<Path> c = new ArrayList<>();
    int[] levels = {1, 4, 8, 16};
    for (int i = 0; i < levels.length; i++) {
      for (int rep = 0; rep < 3; rep++) {
        double m = 1000 * levels[i];
        b.add(
            SyntheticRecord.run()
                .seed(random.nextLong())
                .median(m * (1 + 0.02 * random.nextGaussian()))
                .parameter("level", levels[i])
                .write(base.resolve("sb"), "b" + i + rep));
        c.add(
            SyntheticRecord.run()
                .seed(random.nextLong())
                .median(m * 1.5 * (1 + 0.02 * random.nextGaussian()))
                .parameter("level", levels[i])
                .write(base.resolve("sc"), "c" + i + rep));
      }
    }
    RunComparison comparison =
        RunComparison.of(
            RunMetrics.load(b), RunMetrics.load(c), Comparison.Settings.DEFAULTS, "level");
    assertThat(comparison.comparisons()).isEmpty();
    var p50 =
        comparison.stepped().stream()
            .filter(s -> s.metric().name().equals("p50"))
            .findFirst()
            .orElseThrow();
    assertThat(p50.levels()).hasSize(4);
    assertThat(p50.medianRelativeChange()).isBetween(0.4, 0.6);
    assertThat(comparison.anyWorse()).isTrue();
  }

  @Tag("slow") // writes and reads 120 run records: 2 to 5 s
  @Test
  void trendFindsAStepAtRun30Of60AndNothingInNoise() throws Exception {
    Random random = new Random(30);
    List<Path> step = new ArrayList<>();
    List<Path> noise = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      double m = (i < 30 ? 2_000 : 2_200) * (1 + 0.02 * random.nextGaussian());
      step.add(
          SyntheticRecord.run()
              .seed(random.nextLong())
              .start(1_800_000_000_000L + i * 3_600_000L)
              .seconds(5)
              .rate(400)
              .median(m)
              .write(base.resolve("step"), String.format("run-%02d", i)));
      noise.add(
          SyntheticRecord.run()
              .seed(random.nextLong())
              .start(1_800_000_000_000L + i * 3_600_000L)
              .seconds(5)
              .rate(400)
              .median(2_000 * (1 + 0.02 * random.nextGaussian()))
              .write(base.resolve("noise"), String.format("run-%02d", i)));
    }
    Trend trend =
        Trend.of(RunMetrics.load(List.of(base.resolve("step"))), ChangePoints.Settings.DEFAULTS);
    Trend.Series p50 =
        trend.series().stream()
            .filter(s -> s.metric().metric().name().equals("p50"))
            .findFirst()
            .orElseThrow();
    assertThat(p50.changes().points()).isNotEmpty();
    ChangePoint first = p50.changes().points().get(0);
    assertThat(first.index()).isBetween(28, 32);
    assertThat(trend.render()).contains("p50: change at run " + (first.index() + 1));

    Trend flat =
        Trend.of(RunMetrics.load(List.of(base.resolve("noise"))), ChangePoints.Settings.DEFAULTS);
    assertThat(flat.series()).isNotEmpty();
    assertThat(flat.series()).allSatisfy(s -> assertThat(s.changes().points()).isEmpty());
    assertThat(flat.render()).contains("No change point");
  }
}
