package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.reports.html.TrendPage;
import io.fusillade.reports.runs.RunMetrics;
import io.fusillade.reports.runs.Trend;
import io.fusillade.reports.stats.changepoint.ChangePoints;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fusillade trend HISTORY_DIR [--output DIR]}. */
@Command(
    name = "trend",
    mixinStandardHelpOptions = true,
    description = {
      "Charts a history of runs and finds its change points.",
      "For a history of runs of one simulation (one per build), ordered by start time: per metric",
      "a chart over the runs with its change points (E-divisive, permutation test), written to",
      "trend.html, and the list of change points with the run where each began."
    })
final class TrendCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      arity = "1..*",
      paramLabel = "HISTORY_DIR",
      description = "directories of runs (or run directories)")
  List<Path> directories;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "DIR",
      description = "where to write trend.html (default: the first HISTORY_DIR)")
  Path output;

  @Override
  public Integer call() {
    Trend trend = Trend.of(RunMetrics.load(directories), ChangePoints.Settings.DEFAULTS);
    Path out = output != null ? output : directories.get(0);
    Path page = out.resolve(TrendPage.FILE);
    try {
      TrendPage.write(trend, "Fusillade trend: " + directories.get(0), out);
    } catch (IOException e) {
      throw new FusilladeException("cannot write " + page + ": " + e.getMessage(), e);
    }
    spec.commandLine().getOut().print(trend.render());
    spec.commandLine().getOut().println("Trend: " + page.toAbsolutePath());
    spec.commandLine().getOut().flush();
    return 0;
  }
}
