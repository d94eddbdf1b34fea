package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import java.nio.file.Path;
import java.util.List;
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

  /**
   * The help texts: no picocli formatting warning on any command, one sentence per command in the
   * list (cut nowhere), and run and schema say what their options are for.
   */
  @Test
  void helpTextsAreWhole() {
    java.io.PrintStream stderr = System.err;
    java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
    CliRun top;
    CliRun run;
    CliRun schema;
    StringBuilder all = new StringBuilder();
    try {
      // picocli prints its warnings on System.err, not on the command's error stream
      System.setErr(
          new java.io.PrintStream(warnings, true, java.nio.charset.StandardCharsets.UTF_8));
      top = CliRun.of("--help");
      run = CliRun.of("run", "--help");
      schema = CliRun.of("schema", "--help");
      for (String command :
          List.of(
              "summary",
              "report",
              "intervals",
              "compare",
              "trend",
              "workload",
              "logs",
              "limit",
              "ladder")) {
        CliRun help = CliRun.of(command, "--help");
        all.append(help.out()).append(help.err());
      }
    } finally {
      System.setErr(stderr);
    }
    assertThat(warnings.toString(java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("WARN");
    assertThat(top.out() + top.err() + run.out() + schema.out() + all).doesNotContain("WARN");

    String list = top.out().substring(top.out().indexOf("Commands:"));
    List<String> summaries =
        list.lines()
            .skip(1)
            .filter(line -> line.startsWith("  ") && !line.isBlank())
            .map(String::strip)
            .toList();
    assertThat(summaries).hasSizeGreaterThanOrEqualTo(9);
    for (String line : summaries) {
      String[] nameAndSummary = line.split("\\s{2,}", 2);
      assertThat(nameAndSummary).as(line).hasSize(2); // a summary that wrapped has no name
      assertThat(nameAndSummary[1]).as(line).endsWith(".");
    }
    assertThat(list).contains("Compares candidate runs with baseline runs.");
    assertThat(compact(run.out())).contains("Runs a workload: SQL queries, topics, or log ingest");
    assertThat(compact(run.out())).contains("Kafka bootstrap server", "http(s) base URL");
    assertThat(compact(schema.out())).contains("JDBC URL").doesNotContain("http", "log");
    assertThat(compact(all.toString())).contains("change %, confidence interval", "errors < 1%");
  }

  @Test
  void urlIsRepeatableOnRunAndSchema() {
    RunCommand run = new RunCommand();
    new picocli.CommandLine(run).parseArgs("w.yml", "--url", "a", "--url", "b");
    assertThat(run.target.urls).containsExactly("a", "b");
    SchemaCommand schema = new SchemaCommand();
    new picocli.CommandLine(schema).parseArgs("up", "w.yml", "--url", "c");
    assertThat(schema.urls).containsExactly("c");
  }

  /** The text with its line breaks and runs of spaces made single spaces. */
  private static String compact(String text) {
    return text.replaceAll("\\s+", " ");
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
