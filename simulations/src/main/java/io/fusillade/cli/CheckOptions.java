package io.fusillade.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The checks a run must pass beside the workload's ({@code --check}). */
final class CheckOptions extends OptionGroup {
  @Option(
      names = "--check",
      paramLabel = "CHECK",
      description =
          "A check the run must pass, beside the workload's checks: 'p99 < 50ms', 'errors < 1%%',"
              + " 'rate >= 99%% of target'... (repeatable). A failed check exits 3.")
  List<String> checks = new ArrayList<>();
}
