package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.record.RunRecord;
import io.fusillade.record.SecondCounts;
import io.fusillade.reports.runs.SteadyRate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The test a load generator that lies fails: at 500 requests/s, a table locked for 2 seconds stalls
 * every request that arrives meanwhile. Measured from when each request was due, about half of
 * those 1,000 requests wait more than a second, and the arrival rate does not drop.
 */
class CoordinatedOmissionTest {
  @TempDir Path base;

  @ParameterizedTest(name = "{0} engine")
  @ValueSource(strings = {"jdbc", "native"})
  void aStallShowsAsLatencyOfEveryRequestItDelayedAndNotAsALowerRate(String engine)
      throws Exception {
    GatlingFork run = GatlingFork.run(base, LockedTableSimulation.class, Map.of("engine", engine));
    assertThat(run.exitCode()).as(run.output()).isZero();
    RunRecord record = run.record();

    Histogram reads = record.requests().get("read").all();
    assertThat(reads.getTotalCount()).isEqualTo(500L * LockedTableSimulation.DURATION.toSeconds());
    assertThat(record.requests().get("read").koCount()).isZero();
    assertThat(reads.getValueAtPercentile(99)).as("p99, µs").isGreaterThanOrEqualTo(1_000_000);
    long slowerThanOneSecond = reads.getCountBetweenValues(1_000_000, reads.getMaxValue());
    assertThat(slowerThanOneSecond).isBetween(100L, 999L);

    // Arrivals stay at 500/s ± 2% through the stall and the second after it: the load does not
    // back off when the database stalls. (Start-up seconds, when the JIT warms, get ± 10%.)
    List<double[]> arrivals = arrivalRates(record, "read");
    assertThat(arrivals).hasSizeGreaterThanOrEqualTo(6);
    // The lock is taken about LOCK_AT after the run opens; take the whole seconds that end
    // after it and up to a second after it is released.
    double stallStart = LockedTableSimulation.LOCK_AT.toSeconds() + 0.5;
    double stallEnd = stallStart + LockedTableSimulation.LOCK_FOR.toSeconds() + 1;
    long stallSeconds =
        arrivals.stream().filter(a -> a[1] > stallStart && a[1] <= stallEnd).count();
    assertThat(stallSeconds).isGreaterThanOrEqualTo(3);
    assertThat(arrivals)
        .allSatisfy(
            a -> {
              boolean duringStall = a[1] > stallStart && a[1] <= stallEnd;
              assertThat(a[0])
                  .as("arrivals/s in the interval ending %.1f s into the run", a[1])
                  .isBetween(duringStall ? 490.0 : 450.0, duringStall ? 510.0 : 550.0);
            });
  }

  /**
   * Per whole interval of the run (the partial first and last ones left out): the requests sent per
   * second in it, and when it ended, in seconds from the start of the run.
   */
  static List<double[]> arrivalRates(RunRecord record, String name) {
    List<double[]> rates = new ArrayList<>();
    for (SteadyRate.Interval interval :
        SteadyRate.steady(SteadyRate.intervals(record, second -> sent(second, name)))) {
      rates.add(new double[] {interval.rate(), interval.elapsedSeconds()});
    }
    return rates;
  }

  private static long sent(SecondCounts second, String name) {
    SecondCounts.RequestSecond counts = second.requests().get(name);
    return counts == null ? 0 : counts.sent();
  }
}
