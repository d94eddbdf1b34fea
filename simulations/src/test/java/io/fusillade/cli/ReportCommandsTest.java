package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RequestChannel;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** report, intervals, compare and trend from the command line: output and exit codes. */
class ReportCommandsTest {
  @TempDir static Path base;

  /** Four runs of 2 ms ± 2% and four of 3 ms ± 2%, recorded through the RunRecorder. */
  @BeforeAll
  static void record() {
    Random random = new Random(4);
    for (int i = 0; i < 4; i++) {
      write(base.resolve("fast"), 2_000 * (1 + 0.02 * random.nextGaussian()), random);
      write(base.resolve("slow"), 3_000 * (1 + 0.02 * random.nextGaussian()), random);
    }
  }

  private static void write(Path dir, double micros, Random random) {
    try (RunRecorder run =
        RunRecorder.open(
            RunOptions.of("io.example.CliSimulation")
                .withBaseDirectory(dir)
                .withParameters(java.util.Map.of("rate", 1000)))) {
      RequestChannel q = run.request("q");
      for (int i = 0; i < 2_000; i++) {
        long start = 1_000_000_000L;
        q.sent();
        q.ok(start, start + Math.round(1_000 * micros * Math.exp(0.2 * random.nextGaussian())));
      }
    }
  }

  private static Path oneRun(String side) throws Exception {
    try (var runs = Files.list(base.resolve(side))) {
      return runs.sorted().findFirst().orElseThrow();
    }
  }

  @Test
  void reportWritesItsFilesAndExitsThreeWhenACheckFails() throws Exception {
    Path out = base.resolve("report-ok");
    CliRun ok =
        CliRun.of("report", oneRun("fast").toString(), "-o", out.toString(), "--check", "p99 < 1s");
    assertThat(ok.exitCode()).as(ok.err()).isZero();
    assertThat(ok.out()).contains("passed: p99 < 1s — p99 of all ").contains("index.html");
    assertThat(out.resolve("index.html")).exists();
    assertThat(out.resolve("report.css")).exists(); // linked by the page
    assertThat(out.resolve("summary.json")).exists();
    assertThat(out.resolve("junit.xml")).exists();

    CliRun failed =
        CliRun.of(
            "report", oneRun("fast").toString(), "-o", out.toString(), "--check", "p99 < 1ms");
    assertThat(failed.exitCode()).isEqualTo(3);
    assertThat(failed.out())
        .contains("FAILED: p99 < 1ms — p99 of all ")
        .contains("not below the limit 1.00 ms");
  }

  @Test
  void summaryAndReportPrintTheSameTableOfTheSameRun() throws Exception {
    Path run = oneRun("fast");
    CliRun summary = CliRun.of("summary", run.toString());
    CliRun report =
        CliRun.of("report", run.toString(), "-o", base.resolve("report-same").toString());
    assertThat(summary.exitCode()).as(summary.err()).isZero();
    assertThat(report.exitCode()).as(report.err()).isZero();
    // The summary's first line names the run, its last where the report is; between them, the
    // shared table.
    String table = summary.out().substring(summary.out().indexOf('\n') + 1);
    String last = table.lines().reduce((a, b) -> b).orElseThrow();
    assertThat(last)
        .isEqualTo("No report in " + run + ": 'fusillade report " + run + "' writes one");
    table = table.substring(0, table.indexOf(last));
    assertThat(table.lines().findFirst().orElseThrow())
        .matches(
            "request\\s+count\\s+OK\\s+KO\\s+rate/s\\s+p50 ms\\s+p90 ms\\s+p95 ms\\s+p99 ms"
                + "\\s+p99\\.9 ms\\s+max ms");
    assertThat(table).containsPattern("(?m)^q\\s+2000\\s+2000\\s+0\\s");
    assertThat(report.out()).contains(table);
  }

  @Test
  void summaryPrintsWhereTheReportIs() throws Exception {
    Path run;
    try (var runs = Files.list(base.resolve("slow"))) {
      run = runs.sorted().skip(1).findFirst().orElseThrow();
    }
    assertThat(CliRun.of("report", run.toString()).exitCode()).isZero();
    CliRun summary = CliRun.of("summary", run.toString());
    assertThat(summary.out().strip())
        .endsWith("Fusillade report: " + run.resolve("report").resolve("index.html"));
  }

  @Test
  void aBadCheckIsAUserErrorNamingThePosition() throws Exception {
    CliRun bad = CliRun.of("report", oneRun("fast").toString(), "--check", "p99 < 5 parsecs");
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).contains("check \"p99 < 5 parsecs\"").contains("at position 9");
    assertThat(bad.err()).doesNotContain("Exception");
  }

  @Test
  void compareExitsThreeOnARegressionAndZeroOtherwise() {
    CliRun worse =
        CliRun.of(
            "compare",
            "--baseline",
            base.resolve("fast").toString(),
            "--candidate",
            base.resolve("slow").toString());
    assertThat(worse.exitCode()).as(worse.out() + worse.err()).isEqualTo(3);
    assertThat(worse.out()).contains("WORSE").contains("Verdict: WORSE");

    CliRun better =
        CliRun.of(
            "compare",
            "--baseline",
            base.resolve("slow").toString(),
            "--candidate",
            base.resolve("fast").toString(),
            "--threshold",
            "5%");
    assertThat(better.exitCode()).isZero();
    assertThat(better.out()).contains("better").contains("Verdict: no regression");

    CliRun badThreshold =
        CliRun.of(
            "compare",
            "--baseline",
            base.resolve("slow").toString(),
            "--candidate",
            base.resolve("fast").toString(),
            "--threshold",
            "five");
    assertThat(badThreshold.exitCode()).isEqualTo(2);
  }

  @Test
  void intervalsAndTrendPrintTheirTables() {
    CliRun intervals =
        CliRun.of("intervals", "--confidence", "0.9", base.resolve("fast").toString());
    assertThat(intervals.exitCode()).as(intervals.err()).isZero();
    assertThat(intervals.out()).contains("90.0% CI").contains("p99").contains("Intervals over 4");

    Path history = base.resolve("fast");
    CliRun trend = CliRun.of("trend", history.toString(), "-o", base.resolve("trend").toString());
    assertThat(trend.exitCode()).as(trend.err()).isZero();
    assertThat(trend.out()).contains("Trend over 4 runs").contains("at least 10 are needed");
    assertThat(base.resolve("trend").resolve("trend.html")).exists();
    assertThat(base.resolve("trend").resolve("report.css")).exists(); // linked by the page
  }
}
