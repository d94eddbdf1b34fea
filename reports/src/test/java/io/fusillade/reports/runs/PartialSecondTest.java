package io.fusillade.reports.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-second series of the report's charts when the last second is cut short. */
class PartialSecondTest {
  @TempDir Path base;

  @Test
  void aPartialLastSecondIsARateOverItsRealLengthAndAGaugeIsNotDivided() throws Exception {
    Path dir =
        SyntheticRecord.run()
            .seconds(10)
            .rate(400)
            .lastInterval(0.5)
            .gauge("system.memory.used", s -> 22e9)
            .gauge("lag.orders", s -> 1000)
            .counter("documents", 2000)
            .write(base, "partial");
    RunData run = RunData.load(dir);

    assertThat(run.seconds()).isEqualTo(10);
    // the counts are what they are: half a second holds half the requests
    assertThat(run.completedAll()[9]).isEqualTo(200);
    // the rate divides by the half second
    assertThat(run.completedRateAll()[9]).isCloseTo(400, within(1e-9));
    assertThat(run.completedRate().get("q")[9]).isCloseTo(400, within(1e-9));
    assertThat(run.completedRateAll()).containsOnly(400.0);
    assertThat(run.counterRate().get("documents")[9]).isCloseTo(2000, within(1e-9));
    // gauges are levels: 22 GB stays 22 GB
    assertThat(run.gauges().get("system.memory.used")).containsOnly(22e9);
    assertThat(run.gauges().get("lag.orders")).containsOnly(1000.0);
    // plotted where the run ended
    assertThat(run.secondEnds()[9]).isCloseTo(9.5, within(1e-9));
    assertThat(run.secondEnds()[8]).isEqualTo(9.0);
  }

  @Test
  void aShortLastIntervalThatEndsInTheSameSecondAsTheOneBeforeIsAveragedNotAdded()
      throws Exception {
    // the last flush 0.3 s after the 10th: both end nearest second 10
    Path dir =
        SyntheticRecord.run()
            .seconds(11)
            .rate(400)
            .lastInterval(0.3)
            .gauge("lag.orders", s -> 1000)
            .write(base, "late");
    RunData run = RunData.load(dir);

    assertThat(run.seconds()).isEqualTo(10);
    assertThat(run.completedAll()[9]).isEqualTo(400 + 120);
    assertThat(run.completedRateAll()[9]).isCloseTo(400, within(1e-9));
    // one injector's two values of a summed gauge in one second: their mean, not their sum
    assertThat(run.gauges().get("lag.orders")[9]).isEqualTo(1000.0);
  }

  @Test
  void injectorsRatesAddUp() throws Exception {
    Path one = SyntheticRecord.run().rate(300).lastInterval(0.5).write(base, "one");
    Path two = SyntheticRecord.run().rate(200).pid(2).write(base, "two");
    RunData run = RunData.load(List.of(one, two));
    assertThat(run.completedRateAll()[9]).isCloseTo(500, within(1e-9));
    assertThat(run.completedRateAll()[0]).isCloseTo(500, within(1e-9));
  }
}
