package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.reports.runs.Intervals;
import io.fusillade.reports.runs.RunMetrics;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fusillade intervals --confidence 0.95 RUN_DIR...}. */
@Command(
    name = "intervals",
    mixinStandardHelpOptions = true,
    description = {
      "Gives each metric's confidence interval over N runs.",
      "For N runs of the same simulation: each metric's mean, Student-t confidence interval and",
      "coefficient of variation. A directory that is not a run stands for the runs inside it."
    })
final class IntervalsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "RUN_DIR", description = "run directories")
  List<Path> directories;

  @Option(
      names = "--confidence",
      defaultValue = "0.95",
      description = "confidence level (default ${DEFAULT-VALUE})")
  double confidence;

  @Option(
      names = "--cv-warning",
      defaultValue = "10%",
      paramLabel = "PERCENT",
      description = "warn when a metric's CV is above this (default ${DEFAULT-VALUE})")
  String cvWarning;

  @Override
  public Integer call() {
    if (!(confidence > 0 && confidence < 1)) {
      throw new FusilladeException("--confidence must be between 0 and 1, got " + confidence);
    }
    Intervals intervals =
        Intervals.of(
            RunMetrics.load(directories),
            confidence,
            CompareCommand.fraction("--cv-warning", cvWarning));
    spec.commandLine().getOut().print(intervals.render());
    spec.commandLine().getOut().flush();
    return 0;
  }
}
