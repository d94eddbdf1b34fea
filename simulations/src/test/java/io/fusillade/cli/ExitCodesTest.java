package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.plan.ExitCode;
import io.fusillade.record.RequestChannel;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one table of exit codes ({@link ExitCode}, {@code command-line.md}): one command for each
 * code, each ending with one line that names it. Fixture records where a record is all the command
 * reads; short real runs where the code comes from a run (the JVM that runs Gatling hands its code
 * back through its result, and prints none of its own).
 */
@Tag("slow")
class ExitCodesTest {
  @TempDir static Path dir;

  private static Path record;

  @BeforeAll
  static void fixtureRecord() {
    try (RunRecorder run =
        RunRecorder.open(
            RunOptions.of("io.example.Fixture").withBaseDirectory(dir.resolve("runs")))) {
      RequestChannel q = run.request("q");
      for (int i = 0; i < 100; i++) {
        q.sent();
        q.ok(1_000_000_000L, 1_002_000_000L); // 2 ms
      }
      record = run.directory();
    }
  }

  @Test
  void zeroForSuccess() {
    CliRun summary = CliRun.of("summary", record.toString());
    assertThat(summary.exitCode()).isEqualTo(ExitCode.OK.code());
  }

  @Test
  void twoForAUserErrorInOneLine() {
    CliRun run = CliRun.of("run", dir.resolve("missing.yml").toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.USER_ERROR.code());
    assertThat(run.err().strip().lines()).hasSize(1);
  }

  @Test
  void threeForAFailedCheck() {
    CliRun report =
        CliRun.of(
            "report",
            record.toString(),
            "-o",
            dir.resolve("report").toString(),
            "--check",
            "p99 < 1ms");
    assertThat(report.exitCode()).isEqualTo(ExitCode.CHECK_FAILED.code());
  }

  @Test
  void oneForARunWhoseJvmDiedWithOneExitLineAndNoCodeFromTheFork() throws Exception {
    Path workload = sql("w1.yml", "");
    Forked run =
        fusillade(
            Map.of("FUSILLADE_CHILD_JVM_OPTS", "-XX:+NoSuchOption"),
            "run",
            workload.toString(),
            "--duration",
            "1s");
    assertThat(run.code()).isEqualTo(ExitCode.FAILED.code());
    assertThat(run.exitLines())
        .containsExactly(
            "fusillade: the injector's JVM ended (exit 1) before its run record opened; its output"
                + " above says why: exit code 1");
  }

  @Test
  void threeForAFailedCheckOfARunAndFourForAnAbortRuleEachSaidOnce() throws Exception {
    Path workload = sql("w3.yml", "");
    Forked failed =
        fusillade(
            Map.of(),
            "run",
            workload.toString(),
            "--rate",
            "50",
            "--duration",
            "2s",
            "--check",
            "p99 < 1us",
            "--output",
            dir.resolve("out3").toString());
    assertThat(failed.code()).isEqualTo(ExitCode.CHECK_FAILED.code());
    assertThat(failed.exitLines()).hasSize(1);
    assertThat(failed.exitLines().get(0))
        .isEqualTo("fusillade: 1 check failed (p99 < 1us): exit code 3");

    Forked aborted =
        fusillade(
            Map.of(),
            "run",
            workload.toString(),
            "--rate",
            "50",
            "--duration",
            "20s",
            "--abort-when",
            "p50 > 0ms over 1s",
            "--output",
            dir.resolve("out4").toString());
    assertThat(aborted.code()).isEqualTo(ExitCode.ABORTED.code());
    assertThat(aborted.exitLines()).hasSize(1);
    // the rule with what was measured when it held, and when
    assertThat(aborted.exitLines().get(0))
        .matches(
            "fusillade: the run was stopped by its abort rule: p50 [0-9.,]+ ms > 0ms over 1s"
                + " \\(at [0-9.,]+ s\\): exit code 4.*");
  }

  /**
   * The injector's lag measured in the fork makes the search's verdict, and its code, end to end.
   * The other codes of a search (0, 3, 6) are LimitCommandCodeTest's on its verdicts, the verdicts
   * LimitSearchTest's (running out of steps included); LimitCommandTest runs searches that exit 3.
   */
  @Test
  // Alone, after the others: a limit search's exit code (the injector, or the steps, as the
  // limit) depends on the machine's spare CPU (see the surefire configuration).
  @Tag("exclusive")
  void fiveWhenTheInjectorWasTheLimit() throws Exception {
    Path workload = sql("w5.yml", "");
    // An injector that counts any lag as saturation: the search cannot vouch for any step.
    Forked injector =
        fusillade(
            Map.of("FUSILLADE_JAVA_OPTS", "-Dfusillade.injector.lagThreshold=0.000001"),
            "limit",
            workload.toString(),
            "--step",
            "3s",
            "--slo",
            "errors < 1%",
            "--output",
            dir.resolve("out5").toString());
    assertThat(injector.code()).isEqualTo(ExitCode.INJECTOR_LIMIT.code());
    assertThat(injector.exitLines()).hasSize(1);
    assertThat(injector.exitLines().get(0)).contains("the injector").contains("exit code 5");
  }

  private static Path sql(String name, String more) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, "queries:\n  - sql: select 1\n" + more);
    return file;
  }

  /** A command run in a JVM of its own, as a user runs it. */
  private record Forked(int code, String out, String err) {
    /** The lines that give an exit code: the command's exit line, and any the fork would print. */
    List<String> exitLines() {
      List<String> lines = new ArrayList<>();
      (out + "\n" + err)
          .lines()
          .filter(l -> l.contains("exit code"))
          .forEach(l -> lines.add(l.replaceAll("; run record .*$", "")));
      return lines;
    }
  }

  private static Forked fusillade(Map<String, String> environment, String... args)
      throws Exception {
    List<String> command = CliProcess.command(args);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    if (environment.containsKey("FUSILLADE_JAVA_OPTS")) {
      command.addAll(1, List.of(environment.get("FUSILLADE_JAVA_OPTS").split(" ")));
      builder.command(command);
    }
    File out = Files.createTempFile(dir, "out", ".txt").toFile();
    File err = Files.createTempFile(dir, "err", ".txt").toFile();
    builder.redirectOutput(out).redirectError(err);
    Process process = builder.start();
    if (!process.waitFor(3, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("fusillade " + String.join(" ", args) + " did not end");
    }
    return new Forked(
        process.exitValue(),
        Files.readString(out.toPath(), StandardCharsets.UTF_8),
        Files.readString(err.toPath(), StandardCharsets.UTF_8));
  }
}
