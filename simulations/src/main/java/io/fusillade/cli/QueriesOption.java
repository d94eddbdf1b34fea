package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.workload.QuerySelection;
import io.fusillade.workload.Workload;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --queries lite|full|NAME,...}: which of a workload's queries {@code run}, {@code limit}
 * and {@code ladder} send ({@link QuerySelection}). An option group, so that the three commands
 * take the same option; checked against the file before anything starts, and carried to the Gatling
 * JVM in the run plan ({@code RunPlan.Sql#queries}), where the runner selects the same queries.
 */
final class QueriesOption extends OptionGroup {
  @Option(
      names = "--queries",
      paramLabel = "TAG|NAME,...",
      description = {
        "Only these of the workload's queries: tags of its queries (tags: [lite, full]) or query"
            + " names (the whole name or its first word: Q1), comma-separated; default all."
      })
  String queries;

  /**
   * The workload with the selected queries only: all of them without the option.
   *
   * @throws FusilladeException (exit code 2) when an item names no tag or query of the file, or the
   *     file has no queries to select from
   */
  Workload select(Workload workload) {
    QuerySelection selection = QuerySelection.parse(queries);
    if (selection.all()) {
      return workload;
    }
    if (workload.queries().isEmpty()) {
      throw new FusilladeException(
          "--queries selects SQL queries; " + workload.file() + " has none");
    }
    return selection.apply(workload);
  }

  /** The selection for the run plan: empty when every query runs. */
  List<String> items() {
    return QuerySelection.parse(queries).items();
  }
}
