package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.reports.checks.CheckParser;
import io.fusillade.workload.CheckText;
import io.fusillade.workload.Workload;
import java.util.List;

/**
 * The checks of {@code fusillade run} (the workload's {@code checks:} and {@code --check}),
 * validated before the run so that a typo costs no run. They are evaluated once, on the run record,
 * by the run itself, which writes its verdict and exit code in its result file ({@link
 * io.fusillade.plan.RunResult}); the command line reads that file.
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
}
