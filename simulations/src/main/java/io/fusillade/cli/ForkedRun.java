package io.fusillade.cli;

import io.fusillade.gatling.GatlingLauncher;
import io.fusillade.local.LocalServers;
import io.fusillade.plan.ExitCode;
import io.fusillade.plan.RunPlan;
import io.fusillade.plan.RunResult;
import io.fusillade.plan.RunResultFile;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Runs one planned run in a forked Gatling JVM and says how it ended: the plan goes over as a
 * private file, the result comes back as one ({@link RunResult}: status, verdicts, exit code), and
 * nothing is evaluated here again. SIGINT and SIGTERM meanwhile stop the run, a second one exits at
 * once ({@link ForkSignals}); an embedded server a dead JVM left is stopped; the record goes to the
 * bucket of {@code --output s3://...} however the run ended.
 */
final class ForkedRun {
  /** How long an embedded server left by a dead Gatling JVM gets to stop before it is killed. */
  private static final Duration ORPHAN_GRACE = Duration.ofSeconds(10);

  /**
   * How long after its plan's deadline the forked JVM is killed if it is still there: it stops
   * itself at the deadline, and this is for a JVM that no longer answers.
   */
  private static final Duration PAST_DEADLINE = Duration.ofSeconds(90);

  private ForkedRun() {}

  /**
   * How a run ended.
   *
   * @param code the command's exit code
   * @param result what the forked JVM said, if it said anything
   * @param record the run's record directory, if it opened
   * @param stoppedBy the signal that stopped it here, if one did
   */
  record Outcome(
      ExitCode code,
      Optional<RunResult> result,
      Optional<Path> record,
      Optional<ForkSignals.Received> stoppedBy,
      int jvmExit) {}

  /**
   * Runs the plan's simulation.
   *
   * @param runner the simulation
   * @param plan the plan, its result file left to this method
   * @param outputs where records go (a directory, or a bucket through a local directory)
   * @param err where the signals and the upload say what they do
   */
  static Outcome run(
      Class<?> runner, RunPlan plan, OutputOptions outputs, PrintWriter out, PrintWriter err)
      throws Exception {
    if (outputs.outputBucket != null) {
      S3Records.check(outputs.outputBucket); // bad credentials found now, not after the run
    }
    Files.createDirectories(outputs.output);
    Path resultFile = Files.createTempFile("fusillade-result-", ".json");
    Outcome outcome;
    try {
      outcome =
          runHere(
              runner, plan.withOutputs(plan.outputs().withResultFile(resultFile)), outputs, err);
    } finally {
      Files.deleteIfExists(resultFile);
    }
    if (outputs.outputBucket != null) {
      // However the run ended (failed checks, an abort, a signal), its record goes to the bucket.
      if (outcome.record().isPresent() && !upload(outcome.record().get(), outputs, out, err)) {
        return outcome.code() == ExitCode.OK
            ? new Outcome(
                ExitCode.USER_ERROR,
                outcome.result(),
                outcome.record(),
                outcome.stoppedBy(),
                outcome.jvmExit())
            : outcome;
      }
      S3Records.deleteQuietly(outputs.output); // the temporary directory, Gatling's files too
    }
    return outcome;
  }

  private static Outcome runHere(
      Class<?> runner, RunPlan plan, OutputOptions outputs, PrintWriter err) throws Exception {
    Path resultFile = plan.outputs().resultFile();
    GatlingLauncher launcher =
        GatlingLauncher.of(runner).withPlan(plan).withResults(outputs.output.resolve("gatling"));
    if (!outputs.gatlingReport) {
      launcher = launcher.withoutReports();
    }
    int exit;
    Optional<ForkSignals.Received> signal;
    try (ForkSignals signals =
        ForkSignals.install(err, () -> RunResultFile.read(resultFile).map(RunResult::record))) {
      Process process = launcher.start();
      try {
        signals.watch(process);
        exit = waitFor(process, plan.control().deadline());
        signals.awaitExitAtOnce();
      } finally {
        if (process.isAlive()) {
          process.destroyForcibly();
        }
      }
      signal = signals.received();
    }
    // However the Gatling JVM ended, no embedded server of the run outlives it.
    LocalServers.stopOrphans(ORPHAN_GRACE);
    Optional<RunResult> result = RunResultFile.read(resultFile).filter(RunResult::ended);
    Optional<Path> record = RunResultFile.read(resultFile).map(RunResult::record);
    ExitCode code;
    if (signal.isPresent()) {
      code = ExitCode.of(signal.get().exitCode());
    } else if (result.isPresent()) {
      code = ExitCode.of(result.get().exitCode());
    } else {
      code = ExitCode.FAILED; // the JVM ended without a result: it crashed, or was killed
    }
    return new Outcome(code, result, record, signal, exit);
  }

  /** Waits for the JVM; kills it when it outlives its deadline by far (it stops itself at it). */
  private static int waitFor(Process process, Duration deadline) throws InterruptedException {
    if (deadline == null) {
      return process.waitFor();
    }
    long limit = deadline.plus(PAST_DEADLINE).toMillis();
    if (process.waitFor(limit, java.util.concurrent.TimeUnit.MILLISECONDS)) {
      return process.exitValue();
    }
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    return process.waitFor();
  }

  /** Uploads a run record to the bucket; false, with the local copy kept, on failure. */
  private static boolean upload(Path run, OutputOptions outputs, PrintWriter out, PrintWriter err) {
    try {
      S3Records.Location where = S3Records.upload(run, outputs.outputBucket);
      out.println("Fusillade run record: " + where);
      out.flush();
      return true;
    } catch (RuntimeException e) { // the store's refusal, or a file that cannot be read
      err.println("fusillade: " + e.getMessage() + "; the run record stays at " + run);
      err.flush();
      return false;
    }
  }
}
