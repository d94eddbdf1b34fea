package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.cli.FusilladeCommand;
import io.fusillade.record.RunStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a run's verdict does to the forked Gatling JVM, as {@code mvn gatling:test} and {@code
 * fusillade run} start it: a crashed run is recorded as failed everywhere and exits non-zero; a
 * failed check exits non-zero too, unless {@code fusillade.checks.failBuild=false}.
 */
@Tag("slow")
class RunVerdictTest {
  @TempDir Path base;

  @Test
  void aRunWhoseDatabaseIsUnreachableIsFailedEverywhere() throws Exception {
    GatlingFork run = GatlingFork.run(base, UnreachableDatabaseSimulation.class, Map.of());
    String output = run.output();
    assertThat(run.exitCode()).as(output).isNotZero();
    assertThat(run.record()).as(output).isNotNull();
    assertThat(run.record().manifest().status()).as(output).isEqualTo(RunStatus.FAILED);
    String reason = run.record().manifest().statusReason();
    assertThat(reason).as(output).isNotBlank().doesNotContain("\n");
    assertThat(output).contains("FAILED: run completed — status failed: " + reason + "; only a");

    Path report = run.record().directory().resolve("report");
    String junit = Files.readString(report.resolve("junit.xml"));
    assertThat(junit).contains("failures=\"1\"").contains("<testcase name=\"run completed\"");
    assertThat(junit.substring(junit.indexOf("run completed"))).contains("<failure");
    assertThat(Files.readString(report.resolve("summary.json")))
        .contains("\"status\" : \"failed\"", "\"passed\" : false");

    String directory = run.record().directory().toString();
    assertThat(cli("report", directory, "--output", base.resolve("again").toString()))
        .isEqualTo(FusilladeCommand.CHECK_FAILED);
    assertThat(cli("summary", directory)).isEqualTo(FusilladeCommand.CHECK_FAILED);
  }

  @Test
  void aRunThatGatlingCrashedAfterItsRequestsIsFailed() throws Exception {
    GatlingFork run =
        GatlingFork.run(
            Files.createDirectories(base.resolve("crash")), CrashingSimulation.class, Map.of());
    String output = run.output();
    assertThat(run.exitCode()).as(output).isNotZero();
    assertThat(run.record().requests().get("select one").okCount()).as(output).isEqualTo(1);
    assertThat(run.record().manifest().status()).as(output).isEqualTo(RunStatus.FAILED);
    assertThat(run.record().manifest().statusReason()).contains(CrashingSimulation.MESSAGE);
    assertThat(output).contains("FAILED: run completed — status failed: ");
  }

  @Test
  void aFailedCheckFailsTheJvmLikeAFailedGatlingAssertion() throws Exception {
    GatlingFork run =
        GatlingFork.run(
            Files.createDirectories(base.resolve("fail")), FailingCheckSimulation.class, Map.of());
    assertThat(run.record().manifest().status()).as(run.output()).isEqualTo(RunStatus.COMPLETED);
    assertThat(run.output()).contains("FAILED: " + FailingCheckSimulation.CHECK);
    assertThat(run.exitCode()).as(run.output()).isEqualTo(FusilladeRun.CHECKS_FAILED_EXIT);
    assertThat(run.output()).contains("Fusillade: exit code 2 (a check failed)");
  }

  @Test
  void failBuildFalseTurnsAFailedCheckIntoAWarning() throws Exception {
    GatlingFork run =
        GatlingFork.run(
            Files.createDirectories(base.resolve("warn")),
            FailingCheckSimulation.class,
            Map.of(FusilladeRun.FAIL_BUILD_PROPERTY, "false"));
    assertThat(run.output()).contains("FAILED: " + FailingCheckSimulation.CHECK);
    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.output()).contains("WARNING: the run did not pass its checks");
  }

  @Test
  void aRunStoppedBySignalIsAbortedAndBothReportsAreWritten() throws Exception {
    Path dir = Files.createDirectories(base.resolve("abort"));
    GatlingLauncher launcher =
        GatlingFork.launcher(dir, FailingCheckSimulation.class)
            .withProperties(Map.of("verdict.seconds", "120"));
    Path output = launcher.output();
    Process process = launcher.start();
    long signalled;
    try {
      long deadline = System.currentTimeMillis() + 60_000;
      while (!Files.readString(output).contains("started...")
          && System.currentTimeMillis() < deadline) {
        Thread.sleep(200);
      }
      Thread.sleep(2_000); // some requests
      signalled = System.currentTimeMillis();
      // SIGTERM, as a CI job's cancel (through the handle: Process.destroy also closes the
      // fork's standard input, which it takes for its parent's end)
      process.toHandle().destroy();
      assertThat(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    } finally {
      process.destroyForcibly();
    }
    String printed = Files.readString(output);
    assertThat(process.exitValue()).as(printed).isEqualTo(143); // the signal's
    Path record;
    try (var list = Files.list(launcher.runsDirectory())) {
      record = list.findFirst().orElseThrow();
    }
    var manifest = io.fusillade.record.RunRecordReader.read(record).manifest();
    assertThat(manifest.status()).as(printed).isEqualTo(RunStatus.ABORTED);
    assertThat(manifest.statusReason()).isEqualTo("stopped by SIGTERM");
    // The load stopped at the signal: the record ends within 2 s of it.
    assertThat(manifest.endEpochMs() - signalled).as(printed).isLessThan(2_000);
    assertThat(printed).contains("FAILED: run completed — status aborted: stopped by SIGTERM");
    assertThat(printed).contains("Fusillade: exit code 143 (the run was stopped by SIGTERM)");
    assertThat(Files.readString(record.resolve("report").resolve("junit.xml")))
        .contains("<failure");
    // Gatling ended its run and wrote its report.
    try (var reports = Files.walk(launcher.results())) {
      assertThat(reports.filter(p -> p.getFileName().toString().equals("index.html")).count())
          .as(printed)
          .isEqualTo(1);
    }
  }

  private static int cli(String... args) {
    StringWriter out = new StringWriter();
    return FusilladeCommand.execute(args, new PrintWriter(out), new PrintWriter(out));
  }

  @Test
  void aRunPastItsDeadlineIsStoppedWithBothReportsAndFails() throws Exception {
    try (io.fusillade.local.LocalPostgres postgres =
        io.fusillade.local.LocalPostgres.builder().start()) {
      long started = System.nanoTime();
      GatlingFork run =
          GatlingFork.run(
              Files.createDirectories(base.resolve("deadline")),
              LongSelectSimulation.class,
              Map.of(
                  "long.url",
                  postgres.jdbcUrl(),
                  "long.seconds",
                  "60",
                  io.fusillade.plan.PlanProperties.DEADLINE,
                  "4s"));
      double seconds = (System.nanoTime() - started) / 1e9;
      String output = run.output();
      assertThat(seconds).as(output).isLessThan(40);
      assertThat(run.exitCode()).as(output).isEqualTo(FusilladeRun.RUN_FAILED_EXIT);
      assertThat(run.record().manifest().status()).as(output).isEqualTo(RunStatus.FAILED);
      assertThat(run.record().manifest().statusReason())
          .isEqualTo("the run did not end by its deadline of 4 s (its duration, drain and margin)");
      assertThat(run.record().directory().resolve("report").resolve("index.html")).exists();
      assertThat(run.record().requests().get("select one").okCount()).as(output).isGreaterThan(0);
    }
  }
}
