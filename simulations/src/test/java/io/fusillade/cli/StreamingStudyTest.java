package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import io.fusillade.limit.LimitResult;
import io.fusillade.limit.StepResult;
import io.fusillade.workload.TopicWorkload;
import io.fusillade.workload.Workload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming study's file as shipped and its mistakes, the options of the chain refused where
 * they cannot apply (before anything starts), and the three figures as printed from a record's
 * parameters. The study itself runs in {@link StreamingStudyRunTest}.
 */
class StreamingStudyTest {
  @TempDir Path dir;

  @Test
  void theShippedStudyIsTheSeedsChainOnAReplicatedTopicWithReaders() {
    Path file = Path.of("..", "workloads", "studies", "streaming.yml");
    assertThat(StreamingStudy.is(file)).isTrue();
    assertThat(StreamingStudy.is(Path.of("streaming"))).isTrue();
    List<String> args = StreamingStudy.arguments(file);
    assertThat(Path.of(args.get(0)).getFileName().toString()).isEqualTo("topic-streaming.yml");
    assertThat(String.join(" ", args.subList(1, args.size())))
        .isEqualTo("--then-latency-at 0.33 --idle 15s --latency-step 20s");
    TopicWorkload topic = WorkloadFiles.load(Path.of(args.get(0))).topics().get(0);
    assertThat(topic.replication()).isEqualTo(3);
    assertThat(topic.consumers()).isPositive();
    assertThat(topic.producer())
        .containsEntry("acks", "all")
        .containsEntry("compression.type", "none");
  }

  @Test
  void aStudyFileWithAMistakeIsRefusedNamingTheFileAndTheKey() throws Exception {
    Path file = dir.resolve("s.yml");
    Files.writeString(file, "study: streaming\nworkload: nope.yml\n");
    assertThatThrownBy(() -> StreamingStudy.arguments(file))
        .isInstanceOf(FusilladeException.class)
        .hasMessageContaining("s.yml: workload nope.yml not found");
    Files.writeString(file, "study: streaming\nworkload: t.yml\nthen_latency: 0.3\n");
    assertThatThrownBy(() -> StreamingStudy.arguments(file))
        .hasMessageContaining("s.yml: unknown key 'then_latency' (one of study, workload,");
    Files.writeString(file, "study: streaming\nworkload: t.yml\nidle: [1, 2]\n");
    Files.writeString(dir.resolve("t.yml"), "topics: [{name: t, consumers: 1, rate: 1}]\n");
    assertThatThrownBy(() -> StreamingStudy.arguments(file))
        .hasMessageContaining("s.yml: idle must be one value, as --idle");
  }

  @Test
  void theChainIsRefusedBeforeTheRunWhereItCannotApply() throws Exception {
    Path sql = dir.resolve("q.yml");
    Files.writeString(sql, "queries:\n  - sql: select 1\n");
    Path noReaders = dir.resolve("t.yml");
    Files.writeString(
        noReaders, "topics:\n  - name: t\n    consumers: 0\n    rate: 10\n    duration: 5s\n");
    Path readers = dir.resolve("r.yml");
    Files.writeString(
        readers, "topics:\n  - name: r\n    consumers: 1\n    rate: 10\n    duration: 5s\n");
    record Case(List<String> args, String message) {}
    for (Case c :
        List.of(
            new Case(
                List.of(sql.toString(), "--then-latency-at", "0.33"),
                "--then-latency-at: " + sql + " has no topic"),
            new Case(
                List.of(noReaders.toString(), "--then-latency-at", "0.33"),
                "topic t has no consumers"),
            new Case(
                List.of(readers.toString(), "--idle", "5s"),
                "--idle applies only with --then-latency-at"),
            new Case(
                List.of(readers.toString(), "--then-latency-at", "1.5"),
                "--then-latency-at must be a share above 0 and below 1"),
            new Case(
                List.of(readers.toString(), "--then-latency-at", "33%", "--idle", "1s"),
                "--idle must be at least 3s"),
            new Case(
                List.of(readers.toString(), "--then-latency-at", "a third"),
                "--then-latency-at: \"a third\" is not a share"))) {
      List<String> args = new java.util.ArrayList<>(List.of("limit"));
      args.addAll(c.args());
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
      assertThat(run.err()).as(c.args().toString()).contains(c.message()).doesNotContain("\tat ");
    }
    CliRun study = CliRun.of("study", "streaming", "--rate", "10");
    assertThat(study.exitCode()).isEqualTo(2);
    assertThat(study.err()).contains("--rate do not apply to the streaming study");
  }

  @Test
  void theThreeFiguresSayHowEachWasObtained() throws Exception {
    Path file = dir.resolve("w.yml");
    Files.writeString(
        file,
        """
        topics:
          - name: stream
            partitions: 6
            replication: 3
            consumers: 3
            message_size: 1000
            producer: {acks: all, compression.type: none}
            rate: 10
            duration: 5s
        """);
    Workload workload = WorkloadFiles.load(file);
    StepResult confirm =
        new StepResult(
            5, "confirm", 40, 50, 12000, 11990, 3, 9, 0, "not growing (0/s)", null, List.of());
    Map<String, Object> limit =
        new LinkedHashMap<>(
            new LimitResult(LimitResult.Verdict.FOUND, 12000.0, 12000, confirm, List.of(confirm))
                .toMap());
    limit.put("slo", List.of("errors < 1%", "lag not growing"));
    Map<String, Object> idle = new LinkedHashMap<>();
    idle.put("target", 12.5);
    idle.put("e2eP50Ms", 2.4);
    idle.put("lag", "not growing (0/s)");
    idle.put("passed", true);
    Map<String, Object> third = new LinkedHashMap<>();
    third.put("target", 3960.0);
    third.put("of", "the limit found");
    third.put("e2eP50Ms", 7.25);
    third.put("lag", "growing 300/s");
    third.put("passed", false);
    third.put("why", List.of("read lag growing 300/s (rule: the read lag must not grow)"));
    Map<String, Object> chain = new LinkedHashMap<>();
    chain.put("idleRate", 12.5);
    chain.put("idle", "10s");
    chain.put("latencyAt", 0.33);
    chain.put("latencyStep", "20s");
    chain.put("idleResult", idle);
    chain.put("latencyResult", third);
    StreamingFigures figures = StreamingFigures.of(workload.topics().get(0), limit, chain);

    String text = String.join("\n", figures.lines());
    assertThat(text)
        .contains(
            "1000-byte messages, 6 partitions, replication 3, acks=all, compression none, 3"
                + " readers")
        .contains(
            "maximum speed: 12.00 MB/s = 12,000 msgs/s x 1000 B (the limit search's rate,"
                + " confirmed by a step of its own; every step writing and reading, judged on:"
                + " errors < 1%, lag not growing)")
        .contains("idle p50 end-to-end: 2.40 ms (the first step: 12.5 msgs/s = 100 Kbit/s")
        .contains("p50 end-to-end at 1/3 of max: 7.25 ms (the last step: 3,960 msgs/s = 3.96 MB/s")
        .contains("3.96 MB/s, 0.33 x the limit found, for 20s")
        .contains("FAILED: [read lag growing 300/s (rule: the read lag must not grow)]");
    assertThat(figures.passed()).isFalse();
    assertThat(figures.failures())
        .containsExactly(
            "step at a share of the maximum: [read lag growing 300/s (rule: the read lag must not"
                + " grow)]");
  }
}
