package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.local.LocalPostgres;
import io.fusillade.record.RunEvent;
import io.fusillade.record.RunFiles;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15's abort on error threshold through the real {@code fusillade run}: a rate run whose
 * queries all start failing mid-run (a flag table the query divides by is set to zero) under {@code
 * abort: [errors > 5% over 5s]} stops within seconds of the failures, not at its planned end; its
 * record says {@code aborted} with the rule and the measured share, has the abort event, its report
 * is written, and the command exits {@link FusilladeCommand#ABORTED}.
 */
@Tag("slow")
class RunAbortRuleTest {
  private static final int PLANNED_SECONDS = 60;

  @TempDir Path dir;

  @Test
  void errorsPastTheThresholdStopTheRunWithinSecondsAndSayWhy() throws Exception {
    try (LocalPostgres postgres = LocalPostgres.start()) {
      try (Connection c = postgres.connect();
          Statement s = c.createStatement()) {
        s.execute("create table abort_flag (ok integer not null)");
        s.execute("insert into abort_flag values (1)");
      }
      Path file = dir.resolve("abort.yml");
      Files.writeString(
          file,
          """
          tables_schema:
            - name: abort_rows
              row_count: 20
              columns:
                - {name: id, type: integer, range: [1, 20], unique: true}
              primary_keys: [id]
          queries:
            - name: by id
              sql: select id / f.ok from abort_rows, abort_flag f where id = $1::integer
              params:
                - {type: integer, range: [1, 20]}
          load: {mode: rate, rate: 100, duration: %ds}
          abort:
            - errors > 5%% over 5s
          """
              .formatted(PLANNED_SECONDS));
      CompletableFuture<CliRun> running =
          CompletableFuture.supplyAsync(
              () ->
                  CliRun.of(
                      "run",
                      file.toString(),
                      "--url",
                      postgres.jdbcUrl(),
                      "--setup",
                      "true",
                      "--abort-when",
                      "p99 > 10s over 30s", // never broken here: rules add up
                      "--gatling-report",
                      "--output",
                      dir.resolve("out").toString()));
      Path runDirectory = awaitSeconds(6);
      long failingFrom = System.currentTimeMillis();
      try (Connection c = postgres.connect();
          Statement s = c.createStatement()) {
        s.execute("update abort_flag set ok = 0"); // every query now divides by zero
      }
      CliRun result = running.get(120, TimeUnit.SECONDS);

      assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(4);
      assertThat(FusilladeCommand.ABORTED).isEqualTo(FusilladeRun.ABORTED_EXIT);
      assertThat(result.err())
          .containsPattern(
              "the run was stopped by its abort rule: errors \\S+% > 5% over 5s .*: exit code 4; run record ");
      RunRecord record = RunRecordReader.read(runDirectory);
      assertThat(record.manifest().status()).isEqualTo(RunStatus.ABORTED);
      assertThat(record.manifest().statusReason())
          .startsWith("stopped by its abort rule: errors ")
          .contains("> 5% over 5s (at ");
      List<RunEvent> aborts =
          record.events().stream().filter(e -> e.kind().equals("run-aborted")).toList();
      assertThat(aborts).hasSize(1);
      // The rule breaks within a second or two of the failures (1 s of 100% is 20% over 5 s), and
      // the load stops within 2 s of that: the "failing at 20 s, ended by 27 s".
      long brokenAfter = aborts.get(0).epochMs() - failingFrom;
      assertThat(brokenAfter).isBetween(0L, 3_500L);
      assertThat(record.manifest().endEpochMs() - failingFrom).isLessThan(7_000L);
      assertThat(record.durationSeconds()).isLessThan(PLANNED_SECONDS / 2.0);
      // Fusillade's report and Gatling's are written
      assertThat(runDirectory.resolve("report").resolve("index.html")).isRegularFile();
      try (Stream<Path> gatling = Files.list(dir.resolve("out").resolve("gatling"))) {
        assertThat(gatling.map(run -> run.resolve("index.html")).filter(Files::isRegularFile))
            .hasSize(1);
      }
    }
  }

  /** Waits until the run has recorded {@code seconds} seconds of load; returns its directory. */
  private Path awaitSeconds(int seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (Files.isDirectory(dir.resolve("out"))) {
        try (Stream<Path> runs = Files.list(dir.resolve("out"))) {
          for (Path run : runs.toList()) {
            Path counters = run.resolve(RunFiles.COUNTERS);
            if (Files.isRegularFile(counters)
                && Files.readAllLines(counters).stream().filter(l -> l.contains("by id")).count()
                    >= seconds) {
              return run;
            }
          }
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the run did not start within 120 s");
  }
}
