package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.workload.LoadResult;
import io.fusillade.workload.Problem;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadLoader;
import java.nio.file.Path;
import java.util.stream.Collectors;

/** Loads a workload for a command, turning its problems into one user error. */
final class WorkloadFiles {
  private WorkloadFiles() {}

  static Workload load(Path file) {
    LoadResult result = WorkloadLoader.load(file);
    if (!result.isValid() && result.problems().size() == 1) {
      throw new FusilladeException(result.problems().get(0).toString()); // one line
    }
    if (!result.isValid()) {
      throw new FusilladeException(
          result.problems().size()
              + " problem(s) in "
              + file
              + ":\n"
              + result.problems().stream()
                  .map(Problem::toString)
                  .collect(Collectors.joining("\n")));
    }
    return result.orThrow();
  }
}
