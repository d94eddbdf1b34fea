package io.fusillade.plan;

import io.fusillade.record.CheckVerdict;
import java.nio.file.Path;
import java.util.List;

/**
 * What the forked JVM tells the command line about its run ({@link RunResultFile}): written when
 * the run record opens ({@code ended} false: where the record is, should the JVM die), and again
 * when the run is over, with its status, its checks' verdicts and the exit code from the one table
 * of {@link ExitCode}. The command line evaluates nothing again: it prints the one exit line and
 * exits with this code.
 *
 * @param version the format, {@value RunPlan#VERSION}
 * @param ended whether the run is over
 * @param record the run record's directory, or null before it opened
 * @param status how the run ended, as {@code run.json} says ({@code completed}, {@code failed},
 *     {@code aborted}), or null while it runs
 * @param reason why it failed or was stopped, or null
 * @param stoppedBy what stopped it before its end ({@code SIGTERM}, {@code its abort rule: ...}),
 *     or null
 * @param checks the verdict of each check, in the order they were declared
 * @param exitCode the command's exit code, from {@link ExitCode}
 */
public record RunResult(
    int version,
    boolean ended,
    Path record,
    String status,
    String reason,
    String stoppedBy,
    List<CheckVerdict> checks,
    int exitCode) {

  /** Copies the list. */
  public RunResult {
    checks = checks == null ? List.of() : List.copyOf(checks);
  }

  /** The result while the run runs: only where its record is. */
  public static RunResult running(Path record) {
    return new RunResult(RunPlan.VERSION, false, record, null, null, null, List.of(), 1);
  }

  /** The checks that failed. */
  public List<CheckVerdict> failedChecks() {
    return checks.stream().filter(c -> !c.passed()).toList();
  }
}
