package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.record.RunRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The test a load generator that lies fails: at 500 requests/s, a table locked for 2 seconds stalls
 * every request that arrives meanwhile. Measured from when each request was due, about half of
 * those 1,000 requests wait more than a second, and the arrival rate does not drop.
 */
// Paired: its claim is a latency measured against a known stall, which a busy machine bends; one
// other light test beside it does not (see cli-tests' pom).
@Tag("paired")
@Tag("slow")
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

    // Arrivals stay at 500/s ± 2% through the stall and the second after it, and each of those
    // seconds within ± 5% (a scheduler's hiccup of 40 ms moves 20 arrivals across a boundary of
    // the seconds, as a CI run saw: 480 then 518): the load does not back off when the database
    // stalls. The other seconds are judged by the rule every rate test
    // uses (ArrivalRates): ± 10%, the start-up seconds, when the JIT warms, together.
    ArrivalRates arrivals = ArrivalRates.of(record, "read");
    assertThat(arrivals.intervals()).hasSizeGreaterThanOrEqualTo(6);
    // The lock is taken about LOCK_AT after the run opens; take the whole seconds that end
    // after it and up to a second after it is released.
    double stallStart = LockedTableSimulation.LOCK_AT.toSeconds() + 0.5;
    double stallEnd = stallStart + LockedTableSimulation.LOCK_FOR.toSeconds() + 1;
    Predicate<ArrivalRates.Interval> duringStall =
        a -> a.endedAt() > stallStart && a.endedAt() <= stallEnd;
    List<ArrivalRates.Interval> stall = arrivals.intervals().stream().filter(duringStall).toList();
    assertThat(stall).hasSizeGreaterThanOrEqualTo(3);
    double arrived = 0;
    double seconds = 0;
    for (ArrivalRates.Interval a : stall) {
      arrived += a.perSecond() * a.seconds();
      seconds += a.seconds();
    }
    assertThat(arrived / seconds).as("arrivals/s through the stall").isBetween(490.0, 510.0);
    assertThat(stall)
        .allSatisfy(
            a ->
                assertThat(a.perSecond())
                    .as("arrivals/s in the interval ending %.1f s into the run", a.endedAt())
                    .isBetween(475.0, 525.0));
    arrivals.without(duringStall).assertHeld(LockedTableSimulation.RATE, 0.10);
  }
}
