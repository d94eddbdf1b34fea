package io.fusillade.workload;

import java.util.List;
import java.util.Optional;

/**
 * The outcome of loading a workload file: the workload, or every problem found.
 *
 * @param workload the workload, present only if there are no problems
 * @param problems the problems, sorted by position in the file
 */
public record LoadResult(Optional<Workload> workload, List<Problem> problems) {

  /** Copies the list. */
  public LoadResult {
    problems = List.copyOf(problems);
  }

  /**
   * @return whether the file is valid
   */
  public boolean isValid() {
    return problems.isEmpty();
  }

  /**
   * @return the workload
   * @throws WorkloadException listing the problems, if there are any
   */
  public Workload orThrow() {
    if (!problems.isEmpty()) {
      throw new WorkloadException(problems);
    }
    return workload.orElseThrow();
  }
}
