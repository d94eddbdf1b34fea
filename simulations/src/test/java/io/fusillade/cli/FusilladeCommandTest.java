package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FusilladeCommandTest {
  @TempDir Path base;

  @Test
  void helpListsTheSubcommands() {
    CliRun result = CliRun.of("--help");
    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).contains("Usage: fusillade", "summary");
  }

  @Test
  void versionPrintsAVersion() {
    CliRun result = CliRun.of("--version");
    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).startsWith("fusillade ");
  }

  @Test
  void aWrongArgumentIsAOneLineErrorWithExitCode2() {
    CliRun result = CliRun.of("--no-such-option");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().lines().findFirst().orElseThrow())
        .startsWith("fusillade: Unknown option: '--no-such-option'");
    assertThat(result.err()).doesNotContain("Exception", "\tat ");
  }

  @Test
  void anUnknownSqlEngineIsAUserErrorNamingTheChoices() {
    CliRun result = CliRun.of("run", "no-such-workload.yml", "--engine", "odbc");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err())
        .contains("--engine: unknown SQL engine \"odbc\": use jdbc or native")
        .doesNotContain("\tat ");
  }

  @Test
  void anUnknownSubcommandIsAUserError() {
    CliRun result = CliRun.of("sumary", "x");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).startsWith("fusillade: ").doesNotContain("\tat ");
  }

  @Test
  void theWorkloadCommandsAreReachable() throws Exception {
    Path workload = base.resolve("tiny.yml");
    java.nio.file.Files.writeString(
        workload,
        String.join(
            "\n",
            "config_name: tiny",
            "tables_schema:",
            "  - name: t",
            "    row_count: 10",
            "    columns:",
            "      - name: id",
            "        type: integer",
            "        range: [1, 10]",
            "        unique: true",
            "    primary_keys: [id]",
            ""));
    CliRun check = CliRun.of("workload", "check", workload.toString());
    assertThat(check.exitCode()).as(check.err()).isZero();
    CliRun sample =
        CliRun.of("workload", "sample", workload.toString(), "--table", "t", "--rows", "10");
    assertThat(sample.exitCode()).as(sample.err()).isZero();
    assertThat(sample.out().lines().skip(1).map(String::strip).sorted().toList())
        .containsExactlyInAnyOrder("1", "10", "2", "3", "4", "5", "6", "7", "8", "9");

    java.nio.file.Files.writeString(workload, "config_name: [unclosed");
    CliRun broken = CliRun.of("workload", "check", workload.toString());
    assertThat(broken.exitCode()).isEqualTo(2);
    assertThat(broken.err() + broken.out()).contains("tiny.yml:1").doesNotContain("\tat ");
  }

  @Test
  void summaryOfAMissingDirectoryIsAUserError() {
    CliRun result = CliRun.of("summary", base.resolve("nothing-here").toString());
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().strip())
        .isEqualTo("fusillade: no such directory: " + base.resolve("nothing-here"));
  }

  @Test
  void summaryPrintsTheRunAndFindsTheNewestRunInADirectoryOfRuns() throws Exception {
    try (RunRecorder old = RunRecorder.open(RunOptions.of("Old").withBaseDirectory(base))) {
      long t = System.nanoTime();
      old.request("old request").ok(t, t + 1000);
    }
    Thread.sleep(20);
    Path newest;
    try (RunRecorder run = RunRecorder.open(RunOptions.of("New").withBaseDirectory(base))) {
      long t = System.nanoTime();
      for (int i = 0; i < 3; i++) {
        run.request("lookup").ok(t, t + 1_000_000);
      }
      newest = run.directory();
    }
    CliRun direct = CliRun.of("summary", newest.toString());
    assertThat(direct.exitCode()).isZero();
    assertThat(direct.out()).contains("lookup", "completed").doesNotContain("old request");
    assertThat(direct.out().lines().filter(l -> l.startsWith("lookup")).findFirst().orElseThrow())
        .matches("lookup\\s+3\\s+3\\s+0\\s+.*");

    CliRun newestOfMany = CliRun.of("summary", base.toString());
    assertThat(newestOfMany.exitCode()).isZero();
    assertThat(newestOfMany.out())
        .contains("newest run in", "lookup")
        .doesNotContain("old request");
  }

  @Test
  void summaryOfADirectoryWithoutRunsSaysSo() {
    CliRun result = CliRun.of("summary", base.toString());
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).contains("no run record in " + base);
  }
}
