package io.fusillade.workload;

import io.fusillade.FusilladeException;
import java.util.List;
import java.util.stream.Collectors;

/** A workload file with problems; the message lists them all, one per line. */
public class WorkloadException extends FusilladeException {

  private final transient List<Problem> problems;

  /**
   * @param problems everything wrong with the file, at least one
   */
  public WorkloadException(List<Problem> problems) {
    super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
    this.problems = List.copyOf(problems);
  }

  /**
   * @return the problems, in file order
   */
  public List<Problem> problems() {
    return problems;
  }
}
