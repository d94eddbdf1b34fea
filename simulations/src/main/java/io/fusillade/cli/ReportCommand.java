package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.reports.checks.CheckParser;
import io.fusillade.reports.report.Report;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fusillade report RUN_DIR... [--output DIR] [--check CHECK]...}. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = {
      "Writes a run's HTML, JSON and JUnit report.",
      "Writes index.html, summary.json and junit.xml for one run; several RUN_DIRs are the",
      "injectors of the same run, merged. Evaluates the checks of run.json and --check.",
      "Exit code 3 when a check fails (a run that failed, was aborted or is incomplete fails",
      "'run completed')."
    })
final class ReportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      arity = "1..*",
      paramLabel = "RUN_DIR",
      description = "run directories (one per injector of the same run)")
  List<Path> directories;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "DIR",
      description = "where to write the report (default: RUN_DIR/report)")
  Path output;

  @Option(
      names = "--check",
      paramLabel = "CHECK",
      description = "a check such as 'p99 < 50ms', 'errors < 1%%', 'rate >= 99%% of target'")
  List<String> checks = new ArrayList<>();

  @Override
  public Integer call() {
    for (String check : checks) {
      try {
        CheckParser.parse(check); // before reading the runs, naming the option
      } catch (FusilladeException e) {
        throw new FusilladeException("--check: " + e.getMessage());
      }
    }
    List<Path> runs = new ArrayList<>();
    for (Path d : directories) {
      runs.add(SummaryCommand.resolve(d));
    }
    Report report = Report.create(runs, checks);
    Path out = output != null ? output : runs.get(0).resolve("report");
    report.write(out);
    var stdout = spec.commandLine().getOut();
    stdout.print(report.consoleText());
    stdout.println("Report: " + out.resolve("index.html").toAbsolutePath());
    stdout.flush();
    return report.anyFailed() ? FusilladeCommand.CHECK_FAILED : 0;
  }
}
