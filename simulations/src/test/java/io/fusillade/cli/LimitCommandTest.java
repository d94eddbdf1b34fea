package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.limit.LimitResult;
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
          from: 50
          step: 4s
          warm_up: 25%
          slo: [errors < 1%, p99 < 100ms, latency not growing]
        """);
    Path output = dir.resolve("out");
    CliRun run =
        CliRun.of(
            "limit",
            file.toString(),
            "--pool",
            "4",
            "--engine",
            "native",
            "--expect-at-least",
            "1000/s",
            "--output",
            output.toString());

    assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(FusilladeCommand.CHECK_FAILED);
    assertThat(run.err()).contains("is below the expected 1,000/s: exit code 3");
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
    assertThat(result.limit()).as(steps).isBetween(340.0, 460.0);
    assertThat(record.manifest().checks()).as("the search is the verdict").isEmpty();

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
    Path bad = dir.resolve("bad.yml");
    Files.writeString(bad, "queries:\n  - sql: select 1\nlimit:\n  warm_up: 90%\n");
    CliRun run = CliRun.of("limit", bad.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("bad.yml:4", "limit.warm_up", "limit warm-up must be");
  }
}
