package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.reports.runs.RunComparison;
import io.fusillade.reports.runs.RunMetrics;
import io.fusillade.reports.stats.Comparison;
import io.fusillade.reports.stats.ConfidenceInterval;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fusillade compare --baseline DIR... --candidate DIR... [--threshold 5%] [--alpha 0.05]}.
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = {
      "Compares candidate runs with baseline runs.",
      "Metric by metric: change %%, confidence interval of the change (Welch), p-value, verdict.",
      "'worse' only when significant AND beyond the threshold. Stepped runs (a numeric 'level'",
      "parameter) are compared level by level.",
      "Exit code 3 when something got worse."
    })
final class CompareCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--baseline",
      arity = "1..*",
      required = true,
      paramLabel = "DIR",
      description = "baseline runs, or directories of runs")
  List<Path> baseline;

  @Option(
      names = "--candidate",
      arity = "1..*",
      required = true,
      paramLabel = "DIR",
      description = "candidate runs, or directories of runs")
  List<Path> candidate;

  @Option(
      names = "--threshold",
      defaultValue = "5%",
      paramLabel = "PERCENT",
      description = "smallest change that matters (default ${DEFAULT-VALUE})")
  String threshold;

  @Option(
      names = "--alpha",
      defaultValue = "0.05",
      description = "significance level (default ${DEFAULT-VALUE})")
  double alpha;

  @Option(
      names = "--level-parameter",
      defaultValue = RunComparison.LEVEL,
      paramLabel = "NAME",
      description = "run.json parameter giving a stepped run's level (default ${DEFAULT-VALUE})")
  String levelParameter;

  @Override
  public Integer call() {
    if (!(alpha > 0 && alpha < 1)) {
      throw new FusilladeException("--alpha must be between 0 and 1, got " + alpha);
    }
    Comparison.Settings settings =
        new Comparison.Settings(
            alpha,
            fraction("--threshold", threshold),
            ConfidenceInterval.DEFAULT_CV_WARNING_THRESHOLD);
    RunComparison comparison =
        RunComparison.of(
            RunMetrics.load(baseline), RunMetrics.load(candidate), settings, levelParameter);
    spec.commandLine().getOut().print(comparison.render());
    spec.commandLine().getOut().flush();
    return comparison.anyWorse() ? FusilladeCommand.CHECK_FAILED : 0;
  }

  /** {@code 5%} or {@code 0.05} as a fraction. */
  static double fraction(String option, String text) {
    String t = text.strip();
    try {
      if (t.endsWith("%")) {
        return Double.parseDouble(t.substring(0, t.length() - 1).strip()) / 100;
      }
      return Double.parseDouble(t);
    } catch (NumberFormatException e) {
      throw new FusilladeException(
          option + ": expected a percentage such as 5%, got \"" + text + "\"");
    }
  }
}
