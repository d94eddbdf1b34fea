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

  /**
   * Evaluates the checks of the run that appeared under {@code output} since {@code before} (the
   * checks it declared in {@code run.json}, and "run completed").
   *
   * @param output where runs go
   * @param before the run directories before the run
   * @param err where a failed verdict is said
   * @return whether a check failed; false when no new run record is there (the run crashed before
   *     writing one: the caller keeps Gatling's exit code)
   */
  static boolean failed(Path output, Set<Path> before, PrintWriter err) {
    Optional<Path> run =
        runs(output).stream()
            .filter(p -> !before.contains(p))
            .max(Comparator.comparing(p -> p.getFileName().toString()));
    if (run.isEmpty()) {
      return false;
    }
    Report report;
    try {
      report = Report.create(List.of(run.get()), List.of());
    } catch (FusilladeException e) { // an unreadable record: say so, keep Gatling's exit code
      err.println("fusillade: cannot evaluate the checks of " + run.get() + ": " + e.getMessage());
      err.flush();
      return false;
    }
    List<String> failed =
        report.results().stream().filter(r -> !r.passed()).map(CheckResult::check).toList();
    if (failed.isEmpty()) {
      return false;
    }
    err.println(
        "fusillade: "
            + failed.size()
            + " check"
            + (failed.size() == 1 ? "" : "s")
            + " failed ("
            + String.join("; ", failed)
            + "): exit code "
            + FusilladeCommand.CHECK_FAILED
            + "; run record "
            + run.get());
    err.flush();
    return true;
  }
}
