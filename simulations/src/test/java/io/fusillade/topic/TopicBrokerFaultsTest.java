package io.fusillade.topic;

import static io.fusillade.topic.TopicRuns.gatling;
import static io.fusillade.topic.TopicRuns.map;
import static io.fusillade.topic.TopicRuns.number;
import static io.fusillade.topic.TopicRuns.workloadRun;
import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.record.FailureClass;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunEvent;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunStatus;
import io.fusillade.record.SecondCounts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topic simulations across broker faults, each run in a forked Gatling JVM against embedded
 * brokers in JVMs of their own: a broker stopped, stopped and restarted, killed (one of three, with
 * replication 3 and 1), and a topic read into a sink exactly once across a broker kill and a
 * consumer restart. Apart from {@link TopicSimulationsTest} so that the suite's JVMs share them
 * out.
 */
@Tag("slow")
class TopicBrokerFaultsTest {
  @TempDir Path base;

  @Test
  void aBrokerStoppedMidRunGivesFailuresWithAReasonAndTheRunEndsOnTimeWithItsRecord()
      throws Exception {
    GatlingFork run = gatling(base, BrokerStopSimulation.class);
    assertThat(run.exitCode()).as(run.output()).isZero();
    RunRecord record = run.record();
    assertThat(record.manifest().status()).isEqualTo(RunStatus.COMPLETED);
    RequestTotals writes = record.requests().get("write");
    long expected = BrokerStopSimulation.RATE * BrokerStopSimulation.DURATION.toSeconds();
    assertThat(writes.sent()).isEqualTo(expected);
    assertThat(writes.count()).isEqualTo(expected);
    assertThat(writes.okCount()).isGreaterThan(0);
    assertThat(writes.koCount()).isGreaterThan(0);
    assertThat(writes.errors().keySet()).isNotEmpty().allMatch(reason -> !reason.isBlank());
    // sends buffered while the broker shut down time out (or, when the producer refreshed its
    // metadata in that window, wait for it in vain); those after it are refused at once
    assertThat(writes.errors().keySet()).anyMatch(r -> r.startsWith("connection refused: "));
    assertThat(writes.errors().keySet())
        .allMatch(
            r ->
                r.startsWith("delivery timeout")
                    || r.startsWith("metadata timeout")
                    || r.startsWith("connection refused: "));
    // Every failure within the delivery timeout (plus a request's worth of slack).
    assertThat(writes.ko().getMaxValue() / 1000)
        .isLessThanOrEqualTo(BrokerStopSimulation.DELIVERY_TIMEOUT.toMillis() + 1500);
    // On time: the load, the last delivery timeout, the drain, closing the clients.
    double limit =
        BrokerStopSimulation.DURATION.toSeconds()
            + BrokerStopSimulation.DELIVERY_TIMEOUT.toSeconds()
            + BrokerStopSimulation.DRAIN_TIMEOUT.toSeconds()
            + 12;
    assertThat(record.durationSeconds()).isLessThan(limit);
    Map<String, Object> health = map(record.manifest().health(), "topic.fragile");
    assertThat(map(health, "delivery")).containsKeys("acknowledged", "received", "lost");
    assertThat(run.output()).contains("Fusillade run record: ");
  }

  @Test
  // Timed: its claim is a time (the first OK within 4 s of the restart).
  @Tag("timed")
  void aBrokerStoppedAndRestartedMidRunFailsSendsAtOnceNamingItAndTheRunResumes() throws Exception {
    GatlingFork run = gatling(base, BrokerRestartSimulation.class);
    assertThat(run.exitCode()).as(run.output()).isZero();
    RunRecord record = run.record();
    RequestTotals writes = record.requests().get("write");
    String broker =
        record.events().stream()
            .filter(e -> e.kind().equals(RunEvent.NODE_DOWN))
            .map(RunEvent::target)
            .findFirst()
            .orElseThrow(() -> new AssertionError("no node-down event: " + record.events()));
    Map<String, Long> reasons = new TreeMap<>(writes.errors());
    int at = run.output().indexOf(BrokerRestartSimulation.RESTARTED);
    assertThat(at).as(run.output()).isNotNegative();
    long restartedMs =
        Long.parseLong(
            run.output()
                .substring(at + BrokerRestartSimulation.RESTARTED.length())
                .lines()
                .findFirst()
                .orElseThrow()
                .strip());
    long upMs =
        record.events().stream()
            .filter(e -> e.kind().equals(RunEvent.NODE_UP))
            .mapToLong(RunEvent::epochMs)
            .findFirst()
            .orElseThrow(() -> new AssertionError("no node-up event: " + record.events()));
    long firstOkMs =
        record.seconds().stream()
            .filter(s -> s.epochMs() > restartedMs) // epochMs: the end of the second
            .filter(s -> s.requests().containsKey("write") && s.requests().get("write").ok() > 0)
            .mapToLong(SecondCounts::epochMs)
            .min()
            .orElseThrow();
    System.out.printf(
        "topic outage: KO by reason %s; node-up %d ms after the restart; first OK within %d ms"
            + " of it (the end of its second); KO latency max %d ms%n",
        reasons, upMs - restartedMs, firstOkMs - restartedMs, writes.ko().getMaxValue() / 1000);

    assertThat(reasons).containsKey("connection refused: " + broker);
    assertThat(reasons.keySet())
        .allMatch(r -> FailureClass.of(r) != FailureClass.INJECTOR, "no injector-class KO");
    // most of the outage fails at once: refused, not after the delivery timeout
    assertThat(reasons.get("connection refused: " + broker))
        .isGreaterThan(
            BrokerRestartSimulation.RATE * BrokerRestartSimulation.DOWN_FOR.toSeconds() / 2);
    assertThat(firstOkMs - restartedMs).isLessThan(4000);
    assertThat(record.events())
        .extracting(RunEvent::kind, RunEvent::target)
        .containsSubsequence(
            org.assertj.core.groups.Tuple.tuple(RunEvent.NODE_DOWN, broker),
            org.assertj.core.groups.Tuple.tuple(RunEvent.NODE_UP, broker));
    Map<String, Object> health = map(record.manifest().health(), "topic.outage");
    assertThat(number(map(health, "delivery"), "lost")).as("%s", health).isZero();
  }

  /**
   * Issue 15: a broker of three killed (SIGKILL) mid-run by a scheduled fault, for good. With
   * replication 3, {@code min.insync.replicas} 2 and {@code acks=all} no acknowledged message is
   * lost; with replication 1 the verifier shows the loss exactly: on the dead broker's partition
   * only, every other partition exact.
   */
  @Test
  // Timed: what replication 1 loses is what its reader, fetching every 3 s, had not read at the
  // kill; a busy machine bent it (2026-11-27, see cli-tests' pom).
  @Tag("timed")
  void aBrokerOfThreeKilledLosesNoAcknowledgedMessageWithThreeReplicasAndExactlyItsOwnWithOne()
      throws Exception {
    Path file = TopicRuns.testWorkload("topics-broker-kill.yml");
    GatlingFork run =
        gatling(
            base,
            io.fusillade.scenarios.topic.TopicWorkloadSimulation.class,
            "fusillade.workload=" + file,
            // the dead broker's partition of orders-rf1 never drains: not 30 s of waiting for it
            "fusillade.topic.drainTimeout=12s");
    assertThat(run.exitCode()).as(run.output()).isZero();
    RunRecord record = run.record();
    List<String> faults =
        record.events().stream()
            .filter(e -> e.kind().startsWith("fault-"))
            .map(e -> e.kind() + " " + e.target() + ": " + e.detail())
            .toList();
    assertThat(faults)
        .containsExactly("fault-start kill broker 2: broker 2", "fault-end kill broker 2: killed");
    RequestTotals writes = record.requests().get("write orders");
    // The sends to the dead broker's partition (a third) wait for its leadership to move, after
    // the broker's session times out (9 s), and the producer's next metadata: within the delivery
    // timeout (30 s), so none fails.
    assertThat(writes.count()).as("%s", writes.errors()).isGreaterThanOrEqualTo(200 * 14 * 9 / 10);
    assertThat(writes.okCount())
        .as("no write failed: %s", writes.errors())
        .isEqualTo(writes.count());
    double longestWait = writes.ok().getMaxValue() / 1e6;
    io.fusillade.reports.runs.FaultWindows kill =
        io.fusillade.reports.runs.FaultWindows.of(
                io.fusillade.reports.runs.RunData.load(record.directory()))
            .get(0);
    System.out.printf(
        "broker kill: the longest write of orders waited %.1f s; the report's fail-over: %s%n",
        longestWait, kill.failoverText());
    assertThat(kill.failoverSeconds()).as("the writes stalled by the kill").isPresent();
    Map<String, Object> delivery = map(map(record.manifest().health(), "topic.orders"), "delivery");
    Map<String, Object> single =
        map(map(record.manifest().health(), "topic.orders-rf1"), "delivery");
    System.out.printf(
        "broker kill: writes %s, KO %s, delivery %s; replication 1: %s%n",
        writes.count(), writes.errors(), delivery, single);
    assertThat(number(delivery, "lost")).isZero();
    assertThat(number(delivery, "received")).isGreaterThanOrEqualTo(writes.okCount());

    @SuppressWarnings("unchecked")
    List<Map<String, Object>> partitions = (List<Map<String, Object>>) single.get("perPartition");
    assertThat(partitions).hasSize(3);
    List<Map<String, Object>> losing =
        partitions.stream().filter(p -> number(p, "lost") > 0).toList();
    assertThat(losing).as("the dead broker's partition alone loses: %s", partitions).hasSize(1);
    Map<String, Object> dead = losing.get(0);
    assertThat(number(dead, "lost"))
        .isEqualTo(number(dead, "acknowledged") - number(dead, "received"))
        .isEqualTo(number(single, "lost"));
    for (Map<String, Object> p : partitions) {
      if (p != dead) {
        assertThat(number(p, "received")).as("%s", p).isEqualTo(number(p, "acknowledged"));
      }
    }
  }

  /**
   * Issue 15's topic to table: consumers write each message into a PostgreSQL table with their
   * offsets in one transaction (or copy it to another topic with them in one Kafka transaction);
   * across a broker of three killed and a consumer stopped and started again, every acknowledged
   * message is one row (one committed copy), none twice.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"topic-to-table.yml", "topic-to-topic.yml"})
  void aTopicReadIntoASinkExactlyOnceAcrossABrokerKillAndAConsumerRestart(String workload)
      throws Exception {
    GatlingFork run = workloadRun(base, workload);
    assertThat(run.exitCode()).as(run.output()).isZero();
    RunRecord record = run.record();
    List<RunEvent> ends =
        record.events().stream().filter(e -> e.kind().equals("fault-end")).toList();
    assertThat(ends)
        .extracting(RunEvent::target)
        .contains("kill broker 2 for 3s", "kill consumer 1 for 3s");
    assertThat(ends).extracting(RunEvent::detail).containsOnly("killed, started again");
    RequestTotals writes = record.requests().get("write payments");
    Map<String, Object> delivery =
        map(map(record.manifest().health(), "topic.payments"), "delivery");
    Map<String, Object> table = map(record.manifest().health(), "topic.payments.sink");
    System.out.printf(
        "%s: writes %d (KO %s), delivery %s, sink %s%n",
        workload, writes.count(), writes.errors(), delivery, table);
    // sends to the killed broker's partitions before it was fenced (9 s) time out (KO, up to a
    // third of those seconds' sends): not in the sink's count, which is of the acknowledged ones
    assertThat(writes.count()).isEqualTo(100 * 20);
    assertThat(writes.okCount()).isGreaterThan(100 * 20 * 3 / 4);
    assertThat(number(delivery, "acknowledged")).isEqualTo(writes.okCount());
    assertThat(number(delivery, "lost")).isZero();
    assertThat(number(delivery, "duplicated")).isZero();
    assertThat(number(table, "duplicated")).isZero();
    // every row is a message: the acknowledged ones, and a send that failed but was written
    assertThat(number(table, "rows")).isEqualTo(number(delivery, "received"));
    assertThat(number(table, "rows")).isGreaterThanOrEqualTo(writes.okCount());
  }
}
