package io.fusillade.reports.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fusillade.record.RequestChannel;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SteadyRateTest {
  @TempDir Path base;

  /** Intervals ending at the given ms after 0, starting where the previous ended. */
  private static List<SteadyRate.Interval> intervals(long[] endsMs, long[] counts) {
    List<SteadyRate.Interval> intervals = new ArrayList<>();
    long start = 0;
    for (int i = 0; i < endsMs.length; i++) {
      intervals.add(new SteadyRate.Interval(start, endsMs[i], endsMs[i] / 1000.0, counts[i]));
      start = endsMs[i];
    }
    return intervals;
  }

  @Test
  void aLateFlushMakesALongerIntervalNotAFasterRate() {
    // 100/s throughout; the third flush came a second late, so its interval holds 200 requests.
    List<SteadyRate.Interval> late =
        intervals(new long[] {1000, 2000, 4000, 5000, 6000}, new long[] {40, 100, 200, 100, 60});
    assertThat(SteadyRate.rate(late)).isCloseTo(100.0, within(1e-9));
    assertThat(SteadyRate.steady(late)).extracting(SteadyRate.Interval::rate).containsOnly(100.0);
  }

  @Test
  void setUpAndDrainAreLeftOutAndAStallCounts() {
    List<SteadyRate.Interval> run =
        intervals(
            new long[] {1000, 2000, 3000, 4000, 5000, 6000, 7000},
            new long[] {0, 10, 100, 0, 100, 30, 0});
    assertThat(SteadyRate.steady(run))
        .extracting(SteadyRate.Interval::count)
        .containsExactly(100L, 0L, 100L);
    assertThat(SteadyRate.rate(run)).isCloseTo(200 / 3.0, within(1e-9));
  }

  @Test
  void shortRunsTakeTheWholeSpanAndEmptyOnesHaveNoRate() {
    List<SteadyRate.Interval> two = intervals(new long[] {500, 1000, 1500}, new long[] {0, 30, 20});
    assertThat(SteadyRate.steady(two)).isEmpty();
    assertThat(SteadyRate.rate(two)).isCloseTo(50.0, within(1e-9)); // 50 over 1 s
    assertThat(SteadyRate.rate(intervals(new long[] {1000}, new long[] {0}))).isZero();
    assertThat(SteadyRate.rate(List.of())).isZero();
  }

  @Tag("slow") // records for 2 s of wall time
  @Test
  void theRateOfARecordIsTheSteadyStateOneWithoutSetupAndDrain() throws Exception {
    Path directory;
    try (RunRecorder run =
        RunRecorder.open(
            RunOptions.of("Rate")
                .withBaseDirectory(base)
                .withFlushInterval(Duration.ofMillis(100)))) {
      Thread.sleep(450); // setup before the first request: must not dilute the rate
      RequestChannel q = run.request("q");
      // 20 requests every 10 ms (2,000/s) for about a second, with a 300 ms stall in the middle
      for (int tick = 0; tick < 100; tick++) {
        if (tick == 50) {
          Thread.sleep(300);
        }
        long t = System.nanoTime();
        for (int i = 0; i < 20; i++) {
          q.ok(t, t + 1000);
        }
        Thread.sleep(10);
      }
      Thread.sleep(450); // drain after the last request: must not dilute it either
      directory = run.directory();
    }
    RunData data = RunData.load(directory);
    double rate = data.rate("q");
    double naive = 2000 / data.durationSeconds();
    // Sleeping 10 ms takes a bit longer, so the true rate is under 2,000/s; the stall lowers it
    // further (about 2,000 requests over 1.3 s or more). Setup and drain must not. With 100 ms
    // intervals, counting each as a second would give about a tenth of this: lengths are real.
    assertThat(rate).isBetween(800.0, 1600.0);
    assertThat(rate).isGreaterThan(naive * 1.3);
    assertThat(data.rate(null)).isEqualTo(rate); // one request name: all is q
    assertThat(data.summaries().get(0).rate()).isEqualTo(rate);
    assertThat(data.rate("no such request")).isZero();
  }

  @Test
  void aRunTooShortForASteadyStateHasNoRateToCompare() throws Exception {
    RunData brief = RunData.load(SyntheticRecord.run().seconds(2).write(base, "brief"));
    RunData steady = RunData.load(SyntheticRecord.run().seconds(10).write(base, "steady"));

    assertThat(SteadyRate.hasSteadyState(brief.injectors().get(0))).isFalse();
    assertThat(RunMetrics.of(brief)).doesNotContainKey("rate").containsKey("p99");
    assertThat(SteadyRate.hasSteadyState(steady.injectors().get(0))).isTrue();
    assertThat(RunMetrics.of(steady)).containsKey("rate");
  }
}
