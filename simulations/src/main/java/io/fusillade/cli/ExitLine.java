package io.fusillade.cli;

import io.fusillade.plan.ExitCode;
import io.fusillade.plan.RunResult;
import io.fusillade.record.CheckVerdict;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The one line a command that runs something ends with: what happened, the exit code it returns
 * (from the one table of {@link ExitCode}) and where the record is. The forked JVM prints the
 * summary and each check's verdict; this line is the command's, and the only one with a code.
 */
final class ExitLine {
  private ExitLine() {}

  /** Prints the line of a run that ended with {@code outcome}, and returns its code. */
  static int print(ForkedRun.Outcome outcome, PrintWriter out, PrintWriter err) {
    return print(outcome.code(), describe(outcome), outcome.record(), out, err);
  }

  /**
   * Prints {@code fusillade: WHAT: exit code N; run record DIR}: on standard output for 0, on
   * standard error otherwise.
   *
   * @return the code's number
   */
  static int print(
      ExitCode code, String what, Optional<Path> record, PrintWriter out, PrintWriter err) {
    PrintWriter to = code == ExitCode.OK ? out : err;
    to.println(
        "fusillade: "
            + what
            + ": exit code "
            + code.code()
            + record.map(r -> "; run record " + r).orElse(""));
    to.flush();
    return code.code();
  }

  /** What happened to a run, in words. */
  static String describe(ForkedRun.Outcome outcome) {
    if (outcome.stoppedBy().isPresent()) {
      return "the run was stopped by " + outcome.stoppedBy().get().describe();
    }
    if (outcome.result().isEmpty()) {
      return outcome.record().isPresent()
          ? "the injector's JVM ended (exit "
              + outcome.jvmExit()
              + ") before its run did; the record is incomplete"
          : "the injector's JVM ended (exit "
              + outcome.jvmExit()
              + ") before its run record opened; its output above says why";
    }
    RunResult result = outcome.result().get();
    return switch (ExitCode.of(result.exitCode())) {
      case OK -> passed(result.checks());
      case CHECK_FAILED -> failed(result.failedChecks());
      case ABORTED -> "the run was stopped by " + result.stoppedBy();
      case INTERRUPTED, TERMINATED -> "the run was stopped by " + result.stoppedBy();
      default ->
          "the run " + result.status() + (result.reason() == null ? "" : ": " + result.reason());
    };
  }

  private static String passed(List<CheckVerdict> checks) {
    List<CheckVerdict> declared =
        checks.stream().filter(c -> !c.check().equals("run completed")).toList();
    // judged on the records of all the injectors of the test, not on this one's: not passed here
    List<String> deferred =
        declared.stream()
            .filter(c -> c.line().startsWith("deferred:"))
            .map(CheckVerdict::check)
            .toList();
    long passed = declared.size() - deferred.size();
    if (declared.isEmpty()) {
      return "the run completed (no checks)";
    }
    return "the run completed and passed its "
        + passed
        + (passed == 1 ? " check" : " checks")
        + (deferred.isEmpty()
            ? ""
            : "; "
                + deferred.size()
                + " deferred to the injectors' records together ("
                + String.join("; ", deferred)
                + ")");
  }

  private static String failed(List<CheckVerdict> failed) {
    return failed.size()
        + (failed.size() == 1 ? " check" : " checks")
        + " failed ("
        + String.join("; ", failed.stream().map(CheckVerdict::check).toList())
        + ")";
  }
}
