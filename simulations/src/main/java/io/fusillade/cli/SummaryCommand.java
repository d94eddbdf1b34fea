package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.record.RunFiles;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.summary.SummaryTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fusillade summary RUN_DIR}: per request name, counts, rate and latency percentiles: the
 * {@link SummaryTable} that the report and the end of a run print too.
 */
@Command(
    name = "summary",
    mixinStandardHelpOptions = true,
    description = {
      "Prints a run's table of requests and latencies.",
      "Per request name: count, OK, KO, rate and p50/p90/p95/p99/p99.9/max latency, as",
      "'fusillade report' and the end of a run print them, then where the run's HTML report is.",
      "RUN_DIR is a run directory, or a directory of runs (the newest is taken).",
      "Exits with 3 when the run did not complete (failed, aborted or incomplete)."
    })
final class SummaryCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "RUN_DIR", description = "the run record's directory")
  Path directory;

  @Override
  public Integer call() {
    Path run = resolve(directory);
    if (!run.equals(directory)) {
      spec.commandLine().getOut().println("(newest run in " + directory + ")");
    }
    RunData data = RunData.load(run);
    spec.commandLine().getOut().print(SummaryTable.render(data));
    spec.commandLine().getOut().println(reportLine(run));
    spec.commandLine().getOut().flush();
    // A run that crashed, sent nothing, was stopped or killed must not pass a script's "&&".
    return data.isPartial() ? FusilladeCommand.CHECK_FAILED : 0;
  }

  /**
   * Where the run's HTML report is ({@code RUN_DIR/report/index.html}, written at the end of the
   * run), or how to write one when there is none (a killed run, a record copied without it).
   */
  static String reportLine(Path run) {
    Path page = run.resolve("report").resolve("index.html");
    return Files.isRegularFile(page)
        ? "Fusillade report: " + page
        : "No report in " + run + ": 'fusillade report " + run + "' writes one";
  }

  /** The run directory itself, or the newest run directory inside it. */
  static Path resolve(Path directory) {
    if (!Files.isDirectory(directory)) {
      throw new FusilladeException(
          (Files.exists(directory) ? "not a directory: " : "no such directory: ") + directory);
    }
    if (Files.isRegularFile(directory.resolve(RunFiles.MANIFEST))) {
      return directory;
    }
    try (Stream<Path> children = Files.list(directory)) {
      Optional<Path> newest =
          children
              .filter(p -> Files.isRegularFile(p.resolve(RunFiles.MANIFEST)))
              .max(Comparator.comparing(SummaryCommand::modified));
      return newest.orElseThrow(
          () ->
              new FusilladeException(
                  "no run record in "
                      + directory
                      + ": no "
                      + RunFiles.MANIFEST
                      + " in it or below it"));
    } catch (IOException e) {
      throw new FusilladeException("cannot list " + directory + ": " + e.getMessage(), e);
    }
  }

  private static long modified(Path run) {
    try {
      return Files.getLastModifiedTime(run.resolve(RunFiles.MANIFEST)).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }
}
