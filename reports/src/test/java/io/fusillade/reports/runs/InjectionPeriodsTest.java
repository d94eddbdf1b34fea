package io.fusillade.reports.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fusillade.reports.runs.TimeBands.Band;
import io.fusillade.reports.runs.TimeBands.Kind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workload's own requests before, during and after the requests injected to fail: the periods'
 * seconds, counts, KO share and latency, and the band the time charts shade.
 */
class InjectionPeriodsTest {
  static final String INJECTED = "injected syntax error";

  @TempDir Path base;

  /**
   * 30 s of {@code q} at 200/s, 2 ms; injected requests (20/s, all KO) sent in seconds 10 to 19
   * only, during which {@code q} is ten times slower and 10% of it fails.
   */
  static SyntheticRecord windowed() {
    return SyntheticRecord.run()
        .seconds(30)
        .names(List.of("q", INJECTED))
        .rate(200)
        .rate(INJECTED, s -> s >= 10 && s < 20 ? 20 : 0)
        .ko(INJECTED, s -> 1)
        .median(s -> s >= 10 && s < 20 ? 20_000 : 2_000)
        .ko(s -> s >= 10 && s < 20 ? 0.1 : 0);
  }

  @Test
  void theGoodRequestsAreSlowerAndFailOnlyDuringTheInjection() throws Exception {
    RunData run = RunData.load(windowed().write(base, "windowed"));
    List<InjectionPeriods> periods = InjectionPeriods.of(run);

    assertThat(periods)
        .extracting(InjectionPeriods::period)
        .containsExactly("before", "during", "after");
    assertThat(periods)
        .extracting(InjectionPeriods::secondsText)
        .containsExactly("0–10 s", "10–20 s", "20–30 s");
    assertThat(InjectionPeriods.windowed(periods)).isTrue();

    InjectionPeriods before = periods.get(0);
    InjectionPeriods during = periods.get(1);
    InjectionPeriods after = periods.get(2);
    // the injected requests (200 during) are not counted among the workload's own
    assertThat(periods).extracting(InjectionPeriods::requests).containsExactly(2000L, 2000L, 2000L);
    assertThat(before.ko()).isZero();
    assertThat(before.koPercent()).isZero();
    assertThat(after.ko()).isZero();
    assertThat(during.ko()).isBetween(150L, 250L);
    assertThat(during.koPercent()).isCloseTo(100.0 * during.ko() / 2000, within(1e-9));
    // lognormal around 2 ms (sigma 0.3: p99 about 4 ms), then around 20 ms (p99 about 40 ms)
    assertThat(before.p50Ms()).isCloseTo(2.0, within(0.2));
    assertThat(before.p99Ms()).isBetween(3.0, 5.0);
    assertThat(during.p50Ms()).isCloseTo(20.0, within(2.0));
    assertThat(during.p99Ms()).isBetween(30.0, 50.0);
    assertThat(after.p99Ms()).isBetween(3.0, 5.0);
  }

  @Test
  void theGoodLatenciesLeaveTheInjectedRequestsOut() throws Exception {
    RunData run = RunData.load(windowed().write(base, "good"));
    assertThat(run.goodLatencies(0, run.seconds()).getTotalCount()).isEqualTo(6000);
    assertThat(run.goodLatencies(10, 20).getTotalCount()).isEqualTo(2000);
    assertThat(run.goodLatencies(-5, 1000).getTotalCount()).isEqualTo(6000); // clamped
    assertThat(run.goodLatencies(20, 10).getTotalCount()).isZero();
  }

  @Test
  void theChartsShadeTheInjection() throws Exception {
    RunData run = RunData.load(windowed().write(base, "band"));
    assertThat(TimeBands.of(run)).containsExactly(new Band("injected", 10, 20, Kind.INJECTED));
  }

  @Test
  void anInjectionThroughoutTheRunIsOnlyDuringAndNotShaded() throws Exception {
    RunData run =
        RunData.load(
            SyntheticRecord.run()
                .seconds(30)
                .names(List.of("q", INJECTED))
                .rate(200)
                .rate(INJECTED, s -> 20)
                .write(base, "throughout"));
    List<InjectionPeriods> periods = InjectionPeriods.of(run);
    assertThat(periods).hasSize(1);
    assertThat(periods.get(0).period()).isEqualTo("during");
    assertThat(periods.get(0).fromSeconds()).isZero();
    assertThat(periods.get(0).toSeconds()).isEqualTo(30.0);
    assertThat(periods.get(0).requests()).isEqualTo(6000);
    assertThat(InjectionPeriods.windowed(periods)).isFalse();
    assertThat(TimeBands.of(run)).isEmpty();
  }

  @Test
  void aRunWithoutInjectedRequestsHasNoPeriod() throws Exception {
    RunData run = RunData.load(SyntheticRecord.run().seconds(30).write(base, "none"));
    assertThat(InjectionPeriods.of(run)).isEmpty();
    assertThat(InjectionPeriods.during(InjectionPeriods.of(run))).isEmpty();
    assertThat(run.goodLatencies(0, 30).getTotalCount()).isEqualTo(3000); // all are good
  }

  @Test
  void anInjectionUntilAShortLastSecondHasNoAfterAndEndsWithTheRun() throws Exception {
    RunData run =
        RunData.load(
            SyntheticRecord.run()
                .seconds(30)
                .lastInterval(0.5)
                .names(List.of("q", INJECTED))
                .rate(200)
                .rate(INJECTED, s -> s >= 20 ? 20 : 0)
                .write(base, "until-the-end"));
    List<InjectionPeriods> periods = InjectionPeriods.of(run);
    assertThat(periods).extracting(InjectionPeriods::period).containsExactly("before", "during");
    assertThat(periods.get(1).fromSeconds()).isEqualTo(20.0);
    assertThat(periods.get(1).toSeconds()).isEqualTo(29.5);
    assertThat(periods.get(1).secondsText()).isEqualTo("20–29.5 s");
    assertThat(periods.get(1).requests()).isEqualTo(9 * 200 + 100);
  }
}
