package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.record.RunFiles;
import io.fusillade.reports.checks.CheckParser;
import io.fusillade.reports.checks.CheckResult;
import io.fusillade.reports.report.Report;
import io.fusillade.workload.CheckText;
import io.fusillade.workload.Workload;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The verdict of {@code fusillade run}: its checks (the workload's {@code checks:} and {@code
 * --check}) are validated before the run, so that a typo costs no run, and evaluated after it on
 * the run record, as {@code fusillade report} evaluates them, so that a failed check gives the same
 * exit code, {@link FusilladeCommand#CHECK_FAILED}.
 */
final class RunChecks {
  private RunChecks() {}

  /**
   * Parses every check; the first bad one is a user error naming it: a workload's by its file, line
   * and column, an option's as {@code --check}.
   *
   * @param workload the workload, with its {@code checks:}
   * @param options the {@code --check} options
   * @throws FusilladeException naming the bad check
   */
  static void validate(Workload workload, List<String> options) {
    for (CheckText check : workload.checks()) {
      try {
        CheckParser.parse(check.text());
      } catch (FusilladeException e) {
        throw new FusilladeException(check.problem(e.getMessage()).toString());
      }
    }
    for (String option : options) {
      try {
        CheckParser.parse(option);
      } catch (FusilladeException e) {
        throw new FusilladeException("--check: " + e.getMessage());
      }
    }
  }

  /** The run directories under {@code output} now: those with a run record. */
  static Set<Path> runs(Path output) {
    try (Stream<Path> children = Files.list(output)) {
      return children
          .filter(p -> Files.isRegularFile(p.resolve(RunFiles.MANIFEST)))
          .collect(Collectors.toSet());
    } catch (IOException e) {
      return Set.of();
    }
  }

  /** The newest run directory under {@code output} that was not there {@code before}, if any. */
  static Optional<Path> newRun(Path output, Set<Path> before) {
    return runs(output).stream()
        .filter(p -> !before.contains(p))
        .max(Comparator.comparing(p -> p.getFileName().toString()));
  }

  /**
   * The exit code of {@code fusillade run}: the checks of the run that appeared under {@code
   * output} since {@code before} (those it declared in {@code run.json}, and "run completed"),
   * evaluated as {@code fusillade report} does. A run that did not complete exits 1 (crashed),
   * whatever Gatling said; a failed check exits {@link FusilladeCommand#CHECK_FAILED}; else the
   * code from Gatling's.
   *
   * @param output where runs go
   * @param before the run directories before the run
   * @param exitCode the exit code from Gatling's: 0, 1 (crashed) or 3 (its assertions failed)
   * @param err where a failed verdict is said
   * @return the exit code
   */
  static int exitCode(Path output, Set<Path> before, int exitCode, PrintWriter err) {
    Optional<Path> run = newRun(output, before);
    if (run.isEmpty()) {
      return exitCode; // no record: Gatling said why
    }
    Report report;
    try {
      report = Report.create(List.of(run.get()), List.of());
    } catch (FusilladeException e) { // an unreadable record: say so, keep Gatling's exit code
      err.println("fusillade: cannot evaluate the checks of " + run.get() + ": " + e.getMessage());
      err.flush();
      return exitCode;
    }
    List<CheckResult> failed = report.results().stream().filter(r -> !r.passed()).toList();
    if (failed.isEmpty()) {
      return exitCode;
    }
    if (failed.get(0).check().equals(Report.RUN_COMPLETED)) {
      return 1; // crashed, killed or incomplete: the console says how
    }
    err.println(
        "fusillade: "
            + failed.size()
            + " check"
            + (failed.size() == 1 ? "" : "s")
            + " failed ("
            + String.join("; ", failed.stream().map(CheckResult::check).toList())
            + "): exit code "
            + FusilladeCommand.CHECK_FAILED
            + "; run record "
            + run.get());
    err.flush();
    return FusilladeCommand.CHECK_FAILED;
  }
}
