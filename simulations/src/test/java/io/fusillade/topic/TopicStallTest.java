package io.fusillade.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topic counterpart of the SQL {@code CoordinatedOmissionTest}: a broker frozen for 2 seconds
 * at 100 sends/s delays every send made meanwhile, about 200 of them. Measured from when each send
 * was due, the longest waits are about the stall, so the produce p99 (the slowest 10 of 1,000)
 * covers most of it; so does the end-to-end p99, since the broker hands nothing to the consumer
 * meanwhile. A generator that measured from when the broker answered, or stopped sending while it
 * waited, would show neither.
 */
@Tag("slow")
class TopicStallTest {
  @TempDir Path base;

  @Test
  void aFrozenBrokerShowsAsLatencyOfTheSendsItDelayedNotAsFailuresOrALowerRate() throws Exception {
    GatlingFork run =
        GatlingFork.run(
            GatlingFork.launcher(base, BrokerStallSimulation.class)
                .withHeap("512m")
                .withoutReports()
                .withTimeout(Duration.ofMinutes(4))
                .withProperties(Map.of()));
    assertThat(run.exitCode()).as(run.output()).isZero();
    RunRecord record = run.record();
    RequestTotals writes = record.requests().get("write");
    long expected = BrokerStallSimulation.RATE * BrokerStallSimulation.DURATION.toSeconds();
    assertThat(writes.sent()).as("every send due was made").isEqualTo(expected);
    assertThat(writes.koCount()).as(writes.errors().toString()).isZero();

    long stallMicros = BrokerStallSimulation.STALL.toNanos() / 1000;
    Histogram produce = writes.all();
    Histogram e2e = record.metrics().get("e2e stall");
    System.out.printf(
        "topic stall of %d ms: produce p50 %d ms, p99 %d ms, max %d ms; e2e p99 %d ms%n",
        stallMicros / 1000,
        produce.getValueAtPercentile(50) / 1000,
        produce.getValueAtPercentile(99) / 1000,
        produce.getMaxValue() / 1000,
        e2e.getValueAtPercentile(99) / 1000);
    assertThat(produce.getValueAtPercentile(99))
        .as("produce p99, µs")
        .isGreaterThanOrEqualTo(stallMicros * 3 / 4);
    assertThat(produce.getMaxValue())
        .as("longest send, µs")
        .isGreaterThanOrEqualTo(stallMicros * 9 / 10);
    // Sends due during the stall wait from 2 s down to nothing: about half of its 200 over 1 s.
    long overOneSecond = produce.getCountBetweenValues(1_000_000, produce.getMaxValue());
    assertThat(overOneSecond).as("sends slower than 1 s").isBetween(40L, 199L);

    assertThat(e2e.getTotalCount()).isEqualTo(expected);
    assertThat(e2e.getValueAtPercentile(99))
        .as("end-to-end p99, µs")
        .isGreaterThanOrEqualTo(stallMicros * 3 / 4);
  }
}
