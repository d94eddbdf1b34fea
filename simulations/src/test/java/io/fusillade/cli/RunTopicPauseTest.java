package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fusillade.record.DeliveryCounts;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topic counterpart of the SQL {@code CoordinatedOmissionTest}, through the real {@code
 * fusillade run}: the embedded broker frozen ({@code pause broker 1 for 2s}, SIGSTOP of its JVM) at
 * 100 sends/s delays every send due meanwhile, about 200 of them. The writers' lanes send each on
 * time and each one's latency counts from when it was due, so the produce p99 (the slowest 10 of
 * 1,000) covers most of the stall, and so does the end-to-end p99, since the broker hands nothing
 * to the consumer meanwhile. A generator that measured from when the broker answered, or stopped
 * sending while it waited, would show neither; every arrival of the schedule is sent. The topic has
 * two writers of its own ({@code producers: 2}): each sends half, each exact.
 */
// Timed: its claims are latencies against a known stall, as its SQL and logs counterparts'
// (see cli-tests' pom).
@Tag("timed")
@Tag("slow")
class RunTopicPauseTest {
  private static final int RATE = 100; // sends/s
  private static final int SECONDS = 10;
  private static final long STALL_MICROS = 2_000_000;

  @TempDir Path dir;

  @Test
  void aFrozenBrokerShowsAsLatencyOfTheSendsItDelayedNotAsFailuresOrALowerRate() throws Exception {
    Path file = dir.resolve("w.yml");
    Files.writeString(
        file,
        """
        topics:
          - name: stall
            partitions: 2
            consumers: 1
            producers: 2
            message_size: 512
            rate: %d
            duration: %ds
        faults:
          - at 4s pause broker 1 for 2s
        checks: []
        """
            .formatted(RATE, SECONDS));
    Path output = dir.resolve("out");
    CliRun run = CliRun.of("run", file.toString(), "--output", output.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    RunRecord record = RunRecordReader.read(SummaryCommand.resolve(output));
    assertThat(record.events())
        .filteredOn(e -> e.kind().startsWith("fault-"))
        .extracting(e -> e.kind())
        .containsExactly("fault-start", "fault-end");

    long expected = (long) RATE * SECONDS;
    RequestTotals writes = record.requests().get("write stall");
    assertThat(writes.sent()).as("every send due was made").isEqualTo(expected);
    assertThat(writes.koCount()).as(writes.errors().toString()).isZero();
    Map<?, ?> arrivals = (Map<?, ?>) record.manifest().health().get("arrivals writers stall");
    assertThat(arrivals).as("the writers' lanes' counts").isNotNull();
    assertThat(
            Stream.of("scheduled", "sent", "refused", "unsent")
                .map(k -> (Number) arrivals.get(k))
                .map(Number::longValue))
        .as("scheduled, sent, refused, unsent: every arrival sent")
        .containsExactly(expected, expected, 0L, 0L);

    Histogram produce = writes.all();
    Histogram e2e = record.metrics().get("e2e stall");
    System.out.printf(
        "topic stall of %d ms: produce p50 %d ms, p99 %d ms, max %d ms; e2e p99 %d ms%n",
        STALL_MICROS / 1000,
        produce.getValueAtPercentile(50) / 1000,
        produce.getValueAtPercentile(99) / 1000,
        produce.getMaxValue() / 1000,
        e2e.getValueAtPercentile(99) / 1000);
    assertThat(produce.getValueAtPercentile(99))
        .as("produce p99, µs")
        .isGreaterThanOrEqualTo(STALL_MICROS * 3 / 4);
    assertThat(produce.getMaxValue())
        .as("longest send, µs")
        .isGreaterThanOrEqualTo(STALL_MICROS * 9 / 10);
    // Sends due during the stall wait from 2 s down to nothing: about half of its 200 over 1 s.
    long overOneSecond = produce.getCountBetweenValues(1_000_000, produce.getMaxValue());
    assertThat(overOneSecond).as("sends slower than 1 s").isBetween(40L, 199L);

    assertThat(e2e.getTotalCount()).isEqualTo(expected);

    // The file's two writers ("producers: 2") took the sends in turn, through the stall, each
    // exact: run.json counts them one by one.
    Map<?, ?> topic = (Map<?, ?>) record.manifest().health().get("topic.stall");
    assertThat(((Number) topic.get("producers")).intValue()).isEqualTo(2);
    DeliveryCounts delivery = DeliveryCounts.fromMap((Map<?, ?>) topic.get("delivery"));
    assertThat(delivery.exact()).as(topic.toString()).isTrue();
    assertThat(delivery.perProducer())
        .extracting(p -> p.producer(), p -> p.counts().acknowledged(), p -> p.counts().received())
        .containsExactly(
            tuple(0L, expected / 2, expected / 2), tuple(1L, expected / 2, expected / 2));
    assertThat(e2e.getValueAtPercentile(99))
        .as("end-to-end p99, µs")
        .isGreaterThanOrEqualTo(STALL_MICROS * 3 / 4);
  }
}
