package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import io.fusillade.record.RunStatus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin kit's link to the run analysis: found through {@link java.util.ServiceLoader} when the
 * reports are on the class path (they are in this module's tests), and done without otherwise.
 */
class FusilladeRunTest {
  @TempDir Path base;

  private Path recordedRun() {
    try (RunRecorder run = RunRecorder.open(RunOptions.of("Kit").withBaseDirectory(base))) {
      long t = System.nanoTime();
      for (int i = 0; i < 5; i++) {
        run.request("lookup").ok(t, t + 1_000_000);
      }
      return run.directory().toAbsolutePath();
    }
  }

  private static String print(Path directory, Optional<io.fusillade.record.RunAnalysis> analysis) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      RunEnding.printSummary(directory, analysis, out);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void withTheReportsTheEndOfARunPrintsTheTableTheChecksAndTheReport() {
    assertThat(RunEnding.analysis()).isPresent();
    Path directory = recordedRun();
    String output = print(directory, RunEnding.analysis());
    assertThat(output)
        .containsPattern("request\\s+count\\s+OK\\s+KO\\s+rate/s\\s+p50 ms\\s+p90 ms\\s+p95 ms")
        .containsPattern("(?m)^lookup\\s+5\\s+5\\s+0\\s")
        .contains("passed: run completed")
        .contains("Fusillade report: " + directory.resolve("report").resolve("index.html"))
        .contains("Fusillade run record: " + directory)
        .doesNotContain("No run analysis");
    assertThat(directory.resolve("report").resolve("index.html")).exists();
  }

  @Test
  void withoutTheReportsTheEndOfARunSaysWhereTheRecordIsAndWhatAnalysesIt() {
    Path directory = recordedRun();
    String output = print(directory, Optional.empty());
    assertThat(output)
        .contains("No run analysis on the class path")
        .contains("'fusillade report " + directory + "'")
        .contains("validates and evaluates its checks")
        .contains("Fusillade run record: " + directory)
        .doesNotContain("lookup");
    assertThat(directory.resolve("report")).doesNotExist();
  }

  @Test
  void aCheckWithBadSyntaxFailsWhenItIsDeclared() {
    assertThatThrownBy(() -> FusilladeRun.checks("p99 < 5 parsecs"))
        .isInstanceOf(FusilladeException.class)
        .hasMessage("check \"p99 < 5 parsecs\": expected a unit (us, ms, s) at position 9");
  }

  @Test
  void theExitCodeFollowsTheVerdictUnlessFailBuildIsFalse() {
    assertThat(RunEnding.exitCode(RunStatus.COMPLETED, true, true)).isZero();
    assertThat(RunEnding.exitCode(RunStatus.COMPLETED, false, true))
        .isEqualTo(FusilladeRun.CHECKS_FAILED_EXIT)
        .isEqualTo(GatlingLauncher.ASSERTIONS_FAILED);
    assertThat(RunEnding.exitCode(RunStatus.FAILED, false, true))
        .isEqualTo(FusilladeRun.RUN_FAILED_EXIT)
        .isEqualTo(GatlingLauncher.CRASHED);
    assertThat(RunEnding.exitCode(RunStatus.FAILED, false, false)).isZero();
    assertThat(RunEnding.exitCode(RunStatus.COMPLETED, false, false)).isZero();
  }

  @Test
  void aRunAnalysisGivesEachChecksVerdictWithTheLineThatSaysIt() {
    Path directory = recordedRun();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      assertThat(RunEnding.printSummary(directory, RunEnding.analysis(), out))
          .isNotEmpty()
          .allSatisfy(v -> assertThat(v.passed()).isTrue())
          .anySatisfy(v -> assertThat(v.line()).startsWith("passed: run completed"));
      assertThat(RunEnding.printSummary(directory, Optional.empty(), out)).isEmpty();
    }
  }

  @Test
  void theCommandLinesExitCodeComesFromOneTable() {
    var passed = java.util.List.of(new io.fusillade.record.CheckVerdict("a", true, "passed: a"));
    var failed = java.util.List.of(new io.fusillade.record.CheckVerdict("a", false, "FAILED: a"));
    assertThat(RunEnding.commandExitCode(RunStatus.COMPLETED, passed, null))
        .isEqualTo(io.fusillade.plan.ExitCode.OK);
    assertThat(RunEnding.commandExitCode(RunStatus.COMPLETED, failed, null))
        .isEqualTo(io.fusillade.plan.ExitCode.CHECK_FAILED);
    assertThat(RunEnding.commandExitCode(RunStatus.FAILED, passed, null))
        .isEqualTo(io.fusillade.plan.ExitCode.FAILED);
    assertThat(RunEnding.commandExitCode(RunStatus.ABORTED, passed, RunEnding.Stop.rule("r")))
        .isEqualTo(io.fusillade.plan.ExitCode.ABORTED);
    assertThat(
            RunEnding.commandExitCode(
                RunStatus.ABORTED,
                passed,
                RunEnding.Stop.signal(new StopSignals.Received("INT", 2))))
        .isEqualTo(io.fusillade.plan.ExitCode.INTERRUPTED);
  }
}
