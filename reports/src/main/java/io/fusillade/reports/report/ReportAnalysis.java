package io.fusillade.reports.report;

import io.fusillade.record.CheckVerdict;
import io.fusillade.record.RunAnalysis;
import io.fusillade.reports.checks.CheckParser;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.summary.SummaryTable;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reports' side of {@link RunAnalysis}, found by the Gatling plugin kit through {@link
 * java.util.ServiceLoader}: checks are parsed by {@link CheckParser} as a simulation declares them,
 * and a finished run gets the same report as {@code fusillade report RUN_DIR} (written to {@code
 * RUN_DIR/report}, its console text printed).
 */
public final class ReportAnalysis implements RunAnalysis {
  private static final Logger LOG = LoggerFactory.getLogger(ReportAnalysis.class);

  /** For {@link java.util.ServiceLoader}. */
  public ReportAnalysis() {}

  @Override
  public void validateCheck(String check) {
    CheckParser.parse(check);
  }

  /**
   * Writes the report into {@code runDirectory/report} and prints its console text and where it is.
   * When the report cannot be made (a check in {@code run.json} that no longer parses, a directory
   * that cannot be written), prints the run's table alone.
   */
  @Override
  public List<CheckVerdict> finish(Path runDirectory, PrintStream out) {
    try {
      Report report = Report.create(List.of(runDirectory), List.of());
      Path reportDirectory = runDirectory.resolve("report");
      out.print(report.consoleText());
      try {
        report.write(reportDirectory);
        out.println("Fusillade report: " + reportDirectory.resolve("index.html"));
      } catch (io.fusillade.FusilladeException e) {
        // a full disk: the summary above is the report; the record stays readable
        out.println("Fusillade: " + e.getMessage());
      }
      return report.results().stream()
          .map(r -> new CheckVerdict(r.check(), r.passed(), r.message()))
          .toList();
    } catch (RuntimeException e) {
      LOG.warn("Could not write the report of {}: {}", runDirectory, e.toString());
      try {
        out.print(SummaryTable.render(RunData.load(runDirectory)));
      } catch (RuntimeException unreadable) {
        LOG.warn("Could not summarise the run record {}: {}", runDirectory, unreadable.toString());
      }
      return List.of(
          new CheckVerdict(
              "report written",
              false,
              "FAILED: report written (the run's report could not be made: "
                  + e.getMessage()
                  + ")"));
    }
  }
}
