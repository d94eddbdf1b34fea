package io.fusillade.topic;

import static io.fusillade.topic.TopicRuns.gatling;
import static io.fusillade.topic.TopicRuns.map;
import static io.fusillade.topic.TopicRuns.number;
import static io.fusillade.topic.TopicRuns.workloadRun;
import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunStatus;
import io.fusillade.reports.runs.SteadyRate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the topic simulations through Gatling's launcher in separate JVMs, each against its own
 * embedded broker (a JVM of its own), and checks what the run records say. The runs across broker
 * faults are {@link TopicBrokerFaultsTest}'s.
 *
 * <p>The delivery check lasts {@code -Dtopic.test.duration} (default 20s; 60s is the issue's
 * figure).
 */
@Tag("slow")
class TopicSimulationsTest {
  @TempDir Path base;

  /** A counter's increase per second in the steady state of the run (see {@link SteadyRate}). */
  private static double steadyRate(RunRecord record, String counter) {
    return SteadyRate.rate(
        SteadyRate.intervals(record, s -> s.counters().getOrDefault(counter, 0L)));
  }

  /** The median per-second increase of a counter, over the seconds it moved. */
  private static long median(RunRecord record, String counter) {
    long[] values =
        record.seconds().stream()
            .mapToLong(s -> s.counters().getOrDefault(counter, 0L))
            .filter(v -> v > 0)
            .sorted()
            .toArray();
    assertThat(values).as(counter).isNotEmpty();
    return values[values.length / 2];
  }

  @Test
  @Tag("timed") // rates and an end-to-end p50: timed, not beside the untimed tests
  void twoThousandKibMessagesPerSecondAreDeliveredExactlyQuicklyAndWithAFlatLag() throws Exception {
    String duration = System.getProperty("topic.test.duration", "20s");
    GatlingFork run =
        gatling(
            base,
            TopicThroughputSimulation.class,
            "startRate=2000",
            "steps=1",
            "stepDuration=" + duration,
            "messageSize=1024",
            "partitions=4",
            "consumers=4");
    assertThat(run.exitCode()).as(run.output()).isZero();
    RunRecord record = run.record();
    assertThat(record.manifest().status()).isEqualTo(RunStatus.COMPLETED);
    RequestTotals writes = record.requests().get(TopicThroughputSimulation.REQUEST);
    assertThat(writes.koCount()).isZero();
    long seconds = io.fusillade.gatling.SimulationProperties.parseDuration(duration).toSeconds();
    assertThat(writes.okCount()).isEqualTo(2000 * seconds);

    Map<String, Object> health = map(record.manifest().health(), "topic.throughput");
    Map<String, Object> delivery = map(health, "delivery");
    assertThat(number(delivery, "acknowledged")).isEqualTo(writes.okCount());
    assertThat(number(delivery, "received")).isEqualTo(writes.okCount());
    assertThat(number(delivery, "lost")).isZero();
    assertThat(number(delivery, "duplicated")).isZero();
    assertThat(number(delivery, "outOfOrder")).isZero();
    assertThat(health).containsEntry("drained", true);
    assertThat(map(health, "lagTrend")).containsEntry("verdict", "flat");

    Histogram e2e = record.metrics().get("e2e throughput");
    assertThat(e2e.getTotalCount()).isEqualTo(writes.okCount());
    assertThat(e2e.getValueAtPercentile(50)).as("e2e p50 in µs").isLessThan(50_000);

    Map<String, Object> verdict = map(record.manifest().health(), "topic.throughput.verdict");
    assertThat(((Number) verdict.get("sustainedRate")).doubleValue()).isEqualTo(2000.0);
    // The step's latencies come from the record's intervals inside the step.
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> steps =
        (List<Map<String, Object>>) record.manifest().health().get("topic.throughput.steps");
    assertThat(steps)
        .singleElement()
        .satisfies(
            step -> {
              assertThat(step.get("produceP50Ms")).isInstanceOf(Number.class);
              assertThat(((Number) step.get("produceP50Ms")).doubleValue()).isPositive();
              assertThat(((Number) step.get("e2eP50Ms")).doubleValue()).isPositive().isLessThan(50);
              assertThat(number(step, "failedSends")).isZero();
            });
    // Bytes/s in the record, over the steady intervals with their real lengths (a flush that came
    // late on a loaded machine holds more than a second's bytes): 2000 × 1 KiB written and read.
    assertThat(steadyRate(record, "topic.throughput.produced.bytes"))
        .isBetween(1_850_000.0, 2_250_000.0);
    assertThat(steadyRate(record, "topic.throughput.consumed.bytes"))
        .isBetween(1_850_000.0, 2_250_000.0);
    assertThat(record.seconds()).anyMatch(s -> s.gauges().containsKey("topic.throughput.lag"));
  }

  @Test
  // Alone: a stall of the machine is a burst of catch-up sends. Beside two timed tests (CI,
  // 2026-12-03) one stall of 83 ms made 95 sends in a bucket and 905 in the next (cv 0.12).
  @Tag("exclusive")
  void sendsAt5000PerSecondComeWithoutBursts() throws Exception {
    Path counts = base.resolve("counts.txt");
    GatlingFork run =
        gatling(
            base,
            SmoothnessSimulation.class,
            "rate=5000",
            "duration=10s",
            "sendCounts.out=" + counts);
    assertThat(run.exitCode()).as(run.output()).isZero();
    List<Long> perBucket = Files.readAllLines(counts).stream().map(Long::parseLong).toList();
    // Measured after the warm-up ramp; the last 100 ms are partial.
    List<Long> whole = perBucket.subList(0, perBucket.size() - 1);
    assertThat(whole).hasSizeGreaterThan(75);
    double mean = whole.stream().mapToLong(Long::longValue).average().orElseThrow();
    double variance =
        whole.stream().mapToDouble(c -> (c - mean) * (c - mean)).sum() / (whole.size() - 1);
    double cv = Math.sqrt(variance) / mean;
    assertThat(mean).isBetween(450.0, 550.0);
    assertThat(cv)
        .as(
            "coefficient of variation of sends per 100 ms: %s; injector lag: %s",
            whole, run.record().manifest().health().get("injectorLag"))
        .isLessThan(0.10);
  }

  @Test
  void theLatencySimulationReportsEndToEndPercentilesPerPhase() throws Exception {
    GatlingFork run =
        gatling(
            base,
            TopicLatencySimulation.class,
            "idleRate=50",
            "maxRate=600",
            "fraction=0.5",
            "duration=3s",
            "consumers=2",
            "partitions=2");
    assertThat(run.exitCode()).as(run.output()).isZero();
    Map<String, Object> health = run.record().manifest().health();
    assertThat(number(map(health, "topic.latency-idle.e2e"), "count")).isEqualTo(150);
    assertThat(number(map(health, "topic.latency-load.e2e"), "count")).isEqualTo(900);
    assertThat(((Number) map(health, "topic.latency-load.e2e").get("p50Ms")).doubleValue())
        .isPositive();
    assertThat(run.record().requests().get("write load").okCount()).isEqualTo(900);
  }

  @Test
  void aWorkloadFilesTopicsSectionRunsWithoutCode() throws Exception {
    Path file = TopicRuns.testWorkload("topics-demo.yml");
    GatlingFork run =
        gatling(
            base,
            io.fusillade.scenarios.topic.TopicWorkloadSimulation.class,
            "fusillade.workload=" + file);
    assertThat(run.exitCode()).as(run.output()).isZero();
    RequestTotals writes = run.record().requests().get("write events");
    assertThat(writes.okCount()).isEqualTo(200 * 5);
    assertThat(writes.bytes()).isBetween(1000L * 700, 1000L * 1300); // sizes around 1 KiB
    Map<String, Object> health = map(run.record().manifest().health(), "topic.events");
    assertThat(number(map(health, "delivery"), "received")).isEqualTo(1000);
    assertThat(map(health, "delivery")).containsEntry("exact", true);
    assertThat(run.record().manifest().parameters())
        .containsEntry("seed", 42)
        .containsEntry("mode", "topics")
        .containsEntry("workload", file.toString())
        .containsEntry("rate", 200); // from the injection profile

    // The topic's results in the report: end-to-end latency, delivery per partition, the checks.
    // The latency check is judged on the e2e metric; its bound is not this test's claim (beside
    // the other untimed tests a stall of the machine once made the p99 1,328 ms, 2026-12-03).
    io.fusillade.reports.report.Report report =
        io.fusillade.reports.report.Report.create(
            List.of(run.record().directory()),
            List.of("no messages lost", "delivery exact", "p99 < 30s for \"e2e events\""));
    report.write(base.resolve("report"));
    assertThat(report.results())
        .as(report.consoleText())
        .allMatch(io.fusillade.reports.checks.CheckResult::passed);
    assertThat(report.results().get(1).measured())
        .isEqualTo("lost = 0 of 1,000 acknowledged, 1,000 received");
    var events = report.summaryJson().path("topics").path("events");
    assertThat(events.path("e2e").path("count").asLong()).isEqualTo(1000);
    assertThat(events.path("e2e").path("p99Ms").asDouble()).isPositive();
    assertThat(events.path("delivery").path("perPartition")).hasSize(4);
    assertThat(Files.readString(base.resolve("report").resolve("index.html")))
        .contains("End-to-end latency: events")
        .contains("Delivery per partition: events");
    System.out.println(report.consoleText());
  }

  @Test
  void injectedWritesFailUnderTheirOwnNamesAndTheDeliveryOfTheOthersStaysExact() throws Exception {
    GatlingFork run = workloadRun(base, "topics-injected.yml");
    assertThat(run.exitCode()).as(run.output()).isZero();
    Map<String, RequestTotals> requests = run.record().requests();
    assertThat(requests)
        .as(run.output())
        .containsKeys(
            "write inj",
            "injected oversized message",
            "injected missing topic",
            "injected wrong setting");
    RequestTotals writes = requests.get("write inj");
    RequestTotals oversized = requests.get("injected oversized message");
    RequestTotals missing = requests.get("injected missing topic");
    RequestTotals wrong = requests.get("injected wrong setting");
    RequestTotals writes2 = requests.get("write inj2");
    // 500 + 100 arrivals: the injected kinds take theirs (drawn for each topic), the topics'
    // writes the rest
    assertThat(
            writes.count() + writes2.count() + oversized.count() + missing.count() + wrong.count())
        .isEqualTo(500 + 100);
    assertThat(writes.koCount()).as(writes.errors().toString()).isZero();
    assertThat(oversized.koCount()).isEqualTo(oversized.count()).isPositive();
    assertThat(oversized.errors().keySet())
        .as(oversized.errors().toString())
        .allMatch(r -> r.startsWith("RecordTooLargeException") && r.contains("server"));
    assertThat(missing.koCount()).isEqualTo(missing.count()).isPositive();
    assertThat(missing.errors().keySet())
        .as(missing.errors().toString())
        .allMatch(
            r ->
                r.matches(
                    "metadata timeout: topic fusillade-missing-inj2? not present in metadata"));
    assertThat(wrong.koCount()).isEqualTo(wrong.count()).isPositive();
    assertThat(wrong.errors().keySet())
        .as(wrong.errors().toString())
        .allMatch(r -> r.contains("max.request.size"));
    // the injected writes are no messages of the topic: every acknowledged one was read once
    Map<String, Object> delivery =
        map(map(run.record().manifest().health(), "topic.inj"), "delivery");
    assertThat(number(delivery, "received")).isEqualTo(writes.okCount());
    assertThat(delivery).containsEntry("exact", true);
    Map<String, Object> delivery2 =
        map(map(run.record().manifest().health(), "topic.inj2"), "delivery");
    assertThat(number(delivery2, "received")).isEqualTo(writes2.okCount());
  }

  @Test
  void aTopicsStagesRunAsRampsAndHoldsAndAreRecorded() throws Exception {
    GatlingFork run = workloadRun(base, "topics-stages.yml");
    assertThat(run.exitCode()).as(run.output()).isZero();
    // A ramp from 0 to 100/s over 2 s sends 100, a hold of 100/s for 3 s 300.
    RequestTotals writes = run.record().requests().get("write staged");
    assertThat(writes).as(run.output()).isNotNull();
    assertThat(writes.okCount()).isEqualTo(400);
    Map<String, Object> health = map(run.record().manifest().health(), "topic.staged");
    assertThat(number(map(health, "delivery"), "received")).isEqualTo(400);
    assertThat(run.record().manifest().parameters())
        .containsEntry("mode", "topics")
        .containsEntry(
            "stages",
            List.of(
                Map.of("from", 0, "to", 100, "seconds", 2),
                Map.of("from", 100, "to", 100, "seconds", 3)));
  }
}
