package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.limit.LimitResult;
import io.fusillade.limit.StepResult;
import io.fusillade.record.RunFiles;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.reports.runs.LimitResults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade limit} as a user runs it: a workload whose query sleeps 10 ms, on a pool of 4
 * connections (a capacity of 400/s by construction), its search set by the file's {@code limit:}
 * section. The limit is found near 400/s and printed step by step; {@code --expect-at-least} above
 * it exits 3; the report and {@code summary.json} carry the search.
 */
// Paired, after the timed tests: its claim is a rate found near a known capacity with no step
// failed for the injector, which beside two timed tests lagged 134 ms in one step (2026-12-03);
// one other light test beside it does not bend it (see cli-tests' pom).
@Tag("paired")
@Tag("slow")
class LimitCommandTest {
  @TempDir Path dir;

  @Test
  void findsTheLimitOfAYamlWorkloadAndExitsThreeBelowTheExpectation() throws Exception {
    Path file = dir.resolve("sleep.yml");
    Files.writeString(
        file,
        """
        queries:
          - name: sleep
            sql: select pg_sleep(0.01)
        limit:
          from: 400
          step: 4s
          warm_up: 25%
          slo: [errors < 1%, p99 < 100ms]
        """);
    Path output = dir.resolve("out");
    CliRun run =
        CliRun.of(
            "limit",
            file.toString(),
            "--pool",
            "16",
            "--engine",
            "native",
            "--expect-at-least",
            "2000/s",
            "--output",
            output.toString());

    assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(FusilladeCommand.CHECK_FAILED);
    assertThat(run.err()).contains("; below the expected 2,000/s: exit code 3");
    Path directory;
    try (Stream<Path> runs = Files.list(output)) {
      directory =
          runs.filter(p -> Files.isRegularFile(p.resolve(RunFiles.MANIFEST))).findFirst().get();
    }
    RunRecord record = RunRecordReader.read(directory);
    LimitResult result =
        LimitResult.fromMap((Map<?, ?>) record.manifest().parameters().get("limit"));
    String steps = LimitResults.table(result);
    assertThat(result.verdict()).as(steps).isEqualTo(LimitResult.Verdict.FOUND);
    // A query that sleeps 10 ms on 16 connections serves at most 1,600 a second: found within 15%,
    // confirmed, some step failed and none well above it passed, none failed for the injector.
    double capacity = 1600;
    assertThat(result.limit()).as(steps).isBetween(capacity * 0.85, capacity * 1.15);
    assertThat(result.confirmation().achieved()).as(steps).isGreaterThan(result.limit() * 0.95);
    assertThat(result.steps()).as(steps).anyMatch(s -> !s.passed());
    assertThat(result.steps())
        .as(steps)
        .filteredOn(s -> s.target() > capacity * 1.1)
        .noneMatch(StepResult::passed);
    assertThat(result.steps()).as(steps).allSatisfy(s -> assertThat(s.injector()).isNull());
    assertThat(record.manifest().checks()).as("the search is the verdict").isEmpty();
    // One record: every step an event with its verdict, and the result.
    assertThat(record.events().stream().filter(e -> e.kind().equals("limit-step-end")))
        .hasSameSizeAs(result.steps());
    assertThat(record.events()).anySatisfy(e -> assertThat(e.kind()).isEqualTo("limit-result"));

    CliRun summary = CliRun.of("summary", directory.toString());
    assertThat(summary.out())
        .contains("Limit search:", "confirm", "Limit: maximum sustainable rate");
    Path report = dir.resolve("report");
    CliRun html = CliRun.of("report", directory.toString(), "--output", report.toString());
    assertThat(html.exitCode()).as(html.err()).isZero();
    assertThat(Files.readString(report.resolve("index.html")))
        .contains("Limit search", "Achieved rate at each rate tried");
    assertThat(Files.readString(report.resolve("summary.json")))
        .containsPattern("\"limit\" ?: ?\\{")
        .containsPattern("\"verdict\" ?: ?\"found\"");
  }

  /**
   * A log store's bulks, searched on the embedded OpenSearch up to a ceiling it sustains: the
   * search ends above it, with every step in the record.
   */
  @Test
  void searchesTheBulksOfALogsWorkloadUpToItsMaximum() throws Exception {
    Path file = dir.resolve("logs.yml");
    Files.writeString(
        file,
        """
        logs:
          bulk_size: 50
          rate: 10
          duration: 10s
        limit:
          from: 10
          max: 40
          step: 4s
          slo: [errors < 1%]
        """);
    Path output = dir.resolve("logs-out");
    CliRun run = CliRun.of("limit", file.toString(), "--output", output.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    Path directory;
    try (Stream<Path> runs = Files.list(output)) {
      directory =
          runs.filter(p -> Files.isRegularFile(p.resolve(RunFiles.MANIFEST))).findFirst().get();
    }
    RunRecord record = RunRecordReader.read(directory);
    LimitResult result =
        LimitResult.fromMap((Map<?, ?>) record.manifest().parameters().get("limit"));
    String steps = LimitResults.table(result);
    assertThat(result.verdict()).as(steps).isEqualTo(LimitResult.Verdict.ABOVE_MAX);
    // A step the injector could not vouch for (a pause of a JVM) is run again: targets repeat.
    assertThat(result.steps().stream().map(s -> s.target()).distinct().toList())
        .as(steps)
        .containsExactly(10.0, 20.0, 40.0);
    assertThat(record.requests().get("bulk").okCount()).as(steps).isGreaterThan(3 * 10 * 2);
    // What store this was, for compare (issue 20, item 2).
    @SuppressWarnings("unchecked")
    Map<String, Object> server =
        (Map<String, Object>) record.manifest().parameters().get("logs.server");
    assertThat(server).containsEntry("product", "opensearch").containsEntry("nodes", 1);
    assertThat(String.valueOf(server.get("version"))).matches("\\d+\\.\\d+\\.\\d+.*");
    assertThat(String.valueOf(server.get("index")))
        .contains("index.number_of_shards", "index.number_of_replicas")
        .doesNotContain("index.uuid", "creation_date");
  }

  @Test
  void loadOptionsAndBadLimitSettingsAreUserErrors() throws Exception {
    Path file = dir.resolve("q.yml");
    Files.writeString(file, "queries:\n  - sql: select 1\n");
    for (List<String> args :
        List.of(
            List.of("--rate", "100"),
            List.of("--from", "0"),
            List.of("--step", "1s"),
            List.of("--warm-up", "lots"),
            List.of("--slo", "p99 under 5ms"),
            List.of("--expect-at-least", "fast"))) {
      String[] argv =
          Stream.concat(Stream.of("limit", file.toString()), args.stream()).toArray(String[]::new);
      CliRun run = CliRun.of(argv);
      assertThat(run.exitCode()).as(args + ": " + run.err()).isEqualTo(2);
      assertThat(run.err()).as(args.toString()).startsWith("fusillade: ").doesNotContain("\tat ");
    }
    Path two = dir.resolve("two.yml");
    Files.writeString(
        two,
        "topics:\n  - {name: a, rate: 1, duration: 5s}\n  - {name: b, rate: 1, duration: 5s}\n");
    CliRun topics = CliRun.of("limit", two.toString());
    assertThat(topics.exitCode()).isEqualTo(2);
    assertThat(topics.err()).contains("searches one topic's writes; this workload has 2 topics");
    Path bad = dir.resolve("bad.yml");
    Files.writeString(bad, "queries:\n  - sql: select 1\nlimit:\n  warm_up: 90%\n");
    CliRun run = CliRun.of("limit", bad.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("bad.yml:4", "limit.warm_up", "limit warm-up must be");
  }
}
