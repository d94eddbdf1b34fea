package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.record.RunEvent;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15's scheduled faults through the real {@code fusillade run}: the embedded PostgreSQL is
 * frozen (SIGSTOP) for 3 s of a constant-rate run. The requests due during the pause wait for it,
 * and their latency, counted from when they were due, shows the stall; the fault is two events of
 * the record, a row and a band of the report, an entry of {@code summary.json} with the good
 * requests' recovery time, which the workload's {@code recovery} check judges. A command hook runs
 * beside it, its output kept.
 */
// Timed: its claims are how many requests a delayed or paused server slows, which another test's
// load would raise (see cli-tests' pom).
@Tag("timed")
@Tag("slow")
class RunFaultsTest {
  @TempDir Path dir;

  @Test
  void aPausedServerStallsTheRequestsDueMeanwhileAndTheRecoveryIsMeasured() throws Exception {
    Path file = dir.resolve("w.yml");
    Files.writeString(
        file,
        """
        queries:
          - name: point
            sql: select $1::integer as id
            params:
              - {type: integer, range: [1, 1000]}
        load: {mode: rate, rate: 100, duration: 16s}
        faults:
          - at 5s pause postgres for 3s
          - at 2s run: echo hook ran; exit 7
        checks:
          - recovery < 10s after "pause postgres"
        """);
    Path output = dir.resolve("out");
    CliRun run = CliRun.of("run", file.toString(), "--output", output.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();

    Path record = SummaryCommand.resolve(output);
    RunRecord data = RunRecordReader.read(record);
    List<RunEvent> events =
        data.events().stream().filter(e -> e.kind().startsWith("fault-")).toList();
    assertThat(events)
        .extracting(e -> e.kind() + " " + e.target() + ": " + e.detail())
        .containsExactlyInAnyOrder(
            "fault-start run: echo hook ran; exit 7: ",
            "fault-end run: echo hook ran; exit 7: exit 7: hook ran",
            "fault-start pause postgres for 3s: postgres",
            "fault-end pause postgres for 3s: paused, resumed");
    long start = data.manifest().startEpochMs();
    RunEvent paused = events.stream().filter(e -> e.kind().equals("fault-start")).toList().get(1);
    assertThat(paused.epochMs() - start).as("the pause begins at 5 s").isBetween(4_500L, 6_500L);

    // the requests due during the pause waited for it: seconds of latency, not a gap
    assertThat(data.requests().get("point").koCount()).isZero();
    assertThat(data.requests().get("point").ok().getMaxValue() / 1000.0)
        .as("max latency, ms")
        .isGreaterThan(2_000);

    JsonNode summary =
        new ObjectMapper().readTree(record.resolve("report").resolve("summary.json").toFile());
    JsonNode pause = summary.get("faults").get(1);
    assertThat(pause.get("fault").asText()).isEqualTo("pause postgres for 3s");
    assertThat(pause.get("toSeconds").asDouble() - pause.get("fromSeconds").asDouble())
        .isBetween(2.9, 4.0);
    assertThat(pause.get("recoverySeconds").isNumber()).as(pause.toString()).isTrue();
    assertThat(pause.get("recoverySeconds").asDouble()).isBetween(0.0, 10.0);
    String html = Files.readString(record.resolve("report").resolve("index.html"));
    assertThat(html).contains("<h2 id=\"faults\">Faults</h2>").contains("pause postgres for 3s");
  }

  @Test
  void aDelayedServerAnswersEachRequestThatMuchLaterForItsLengthOnly() throws Exception {
    Path file = dir.resolve("delay.yml");
    Files.writeString(
        file,
        """
        queries:
          - name: point
            sql: select $1::integer as id
            params:
              - {type: integer, range: [1, 1000]}
        load: {mode: rate, rate: 100, duration: 10s}
        faults:
          - at 3s delay postgres by 50ms for 3s
        checks: []
        """);
    Path output = dir.resolve("delayed");
    CliRun run = CliRun.of("run", file.toString(), "--output", output.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    RunRecord data = RunRecordReader.read(SummaryCommand.resolve(output));
    assertThat(data.events())
        .filteredOn(e -> e.kind().startsWith("fault-"))
        .extracting(e -> e.kind() + " " + e.target() + ": " + e.detail())
        .containsExactly(
            "fault-start delay postgres by 50ms for 3s: postgres",
            "fault-end delay postgres by 50ms for 3s: delayed 50 ms, then not");
    var point = data.requests().get("point");
    assertThat(point.koCount()).isZero();
    assertThat(point.count()).isEqualTo(1000);
    // the 3 s of the delay: about 300 requests answered 50 ms later; the others at once
    long slow = point.ok().getTotalCount() - point.ok().getCountBetweenValues(0, 49_000);
    System.out.printf(
        "delay 50 ms for 3 s: %d requests, %d KO, %d of 49 ms or more, p50 %.2f ms, max %.1f ms%n",
        point.count(),
        point.koCount(),
        slow,
        point.ok().getValueAtPercentile(50) / 1000.0,
        point.ok().getMaxValue() / 1000.0);
    assertThat(slow).as("requests of 49 ms or more").isBetween(240L, 360L);
    assertThat(point.ok().getValueAtPercentile(50) / 1000.0).as("p50, ms").isLessThan(20.0);
  }

  @Test
  void aDelayedBrokerAcknowledgesEachSendThatMuchLaterForItsLengthOnly() throws Exception {
    Path file = dir.resolve("broker-delay.yml");
    Files.writeString(
        file,
        """
        topics:
          - name: events
            partitions: 1
            replication: 1
            message_size: {type: integer, range: [100, 100]}
            producer: {linger.ms: 0}
            rate: 100
            duration: 10s
        faults:
          - at 3s delay broker by 50ms for 3s
        checks: []
        """);
    Path output = dir.resolve("broker-delayed");
    CliRun run = CliRun.of("run", file.toString(), "--output", output.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    RunRecord data = RunRecordReader.read(SummaryCommand.resolve(output));
    assertThat(data.events())
        .filteredOn(e -> e.kind().startsWith("fault-"))
        .extracting(e -> e.kind() + " " + e.target() + ": " + e.detail())
        .containsExactly(
            "fault-start delay broker by 50ms for 3s: broker",
            "fault-end delay broker by 50ms for 3s: delayed 50 ms, then not");
    var writes = data.requests().get("write events");
    assertThat(writes.koCount()).isZero();
    assertThat(writes.count()).isEqualTo(1000);
    // the 3 s of the delay: about 300 sends acknowledged 50 ms later; the others at once
    long slow = writes.ok().getTotalCount() - writes.ok().getCountBetweenValues(0, 49_000);
    System.out.printf(
        "broker delayed 50 ms for 3 s: %d sends, %d of 49 ms or more, p50 %.2f ms, max %.1f ms%n",
        writes.count(),
        slow,
        writes.ok().getValueAtPercentile(50) / 1000.0,
        writes.ok().getMaxValue() / 1000.0);
    assertThat(slow).as("sends of 49 ms or more").isBetween(240L, 380L);
    assertThat(writes.ok().getValueAtPercentile(50) / 1000.0).as("p50, ms").isLessThan(20.0);
  }
}
