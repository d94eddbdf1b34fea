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
      description =
          "run directories (one per injector of the same run), or s3://BUCKET/PREFIX: the run"
              + " record there, or every one under it")
  List<String> directories;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "DIR|s3://BUCKET/PREFIX",
      description =
          "where to write the report (default: RUN_DIR/report; fusillade-report for records in a"
              + " bucket)")
  String output;

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
    List<Path> temporaries = new ArrayList<>();
    try {
      return report(temporaries);
    } finally {
      temporaries.forEach(S3Records::deleteQuietly);
    }
  }

  private int report(List<Path> temporaries) {
    List<Path> runs =
        S3Records.localCopies(directories, d -> SummaryCommand.resolve(Path.of(d)), temporaries);
    boolean fromBucket = directories.stream().anyMatch(S3Records.Location::is);
    Report report = Report.create(runs, checks);
    S3Records.Location bucket =
        S3Records.Location.is(output) ? S3Records.Location.parse(output) : null;
    Path out;
    if (bucket != null) {
      out = S3Records.temporary();
      temporaries.add(out);
    } else if (output != null) {
      out = Path.of(output);
    } else {
      out = fromBucket ? Path.of("fusillade-report") : runs.get(0).resolve("report");
    }
    report.write(out);
    var stdout = spec.commandLine().getOut();
    stdout.print(report.consoleText());
    if (bucket != null) {
      S3Records.uploadFiles(out, bucket);
      stdout.println("Report: " + bucket + "/index.html");
    } else {
      stdout.println("Report: " + out.resolve("index.html").toAbsolutePath());
    }
    stdout.flush();
    return report.anyFailed() ? FusilladeCommand.CHECK_FAILED : 0;
  }
}
