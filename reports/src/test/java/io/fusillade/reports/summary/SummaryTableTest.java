package io.fusillade.reports.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fusillade.record.RequestChannel;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import io.fusillade.reports.report.Report;
import io.fusillade.reports.runs.RequestSummary;
import io.fusillade.reports.runs.RunData;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryTableTest {
  @TempDir Path base;

  @Test
  void percentilesCoverOkAndKoTogether() throws Exception {
    Path directory;
    try (RunRecorder run = RunRecorder.open(RunOptions.of("Summary").withBaseDirectory(base))) {
      RequestChannel q = run.request("q");
      long t = System.nanoTime();
      for (int i = 1; i <= 900; i++) {
        q.ok(t, t + i * 1_000L); // 1..900 µs
      }
      for (int i = 901; i <= 1000; i++) {
        q.ko(t, t + i * 1_000L, "timeout");
      }
      directory = run.directory();
    }
    RequestSummary q = RunData.load(directory).summaries().get(0);
    assertThat(q.count()).isEqualTo(1000);
    assertThat(q.ok()).isEqualTo(900);
    assertThat(q.ko()).isEqualTo(100);
    assertThat(q.p50Ms()).isCloseTo(0.500, within(0.001));
    assertThat(q.p90Ms()).isCloseTo(0.900, within(0.001));
    assertThat(q.p95Ms()).isCloseTo(0.950, within(0.001)); // a KO latency: KOs count
    assertThat(q.p99Ms()).isCloseTo(0.990, within(0.001));
    assertThat(q.maxMs()).isCloseTo(1.000, within(0.001));
    assertThat(q.errors()).containsEntry("timeout", 100L);
  }

  @Test
  void theTableShowsEveryRequestEveryColumnAndWarning() throws Exception {
    Path directory;
    try (RunRecorder run = RunRecorder.open(RunOptions.of("Table").withBaseDirectory(base))) {
      long t = System.nanoTime();
      run.request("lookup").ok(t, t + 2_000_000);
      run.request("insert").ko(t, t + 1_000_000, "SQLState 23505: duplicate key");
      run.flag("injector saturated — latencies are not trustworthy");
      directory = run.directory();
    }
    String table = SummaryTable.render(RunData.load(directory));
    assertThat(table.lines().toList())
        .contains(
            "request  count  OK  KO  rate/s  p50 ms  p90 ms  p95 ms  p99 ms  p99.9 ms  max ms")
        .anyMatch(l -> l.matches("lookup\\s+1\\s+1\\s+0\\s+\\S+(\\s+2\\.00){6}"))
        .anyMatch(l -> l.matches("insert\\s+1\\s+0\\s+1\\s+\\S+(\\s+1\\.00){6}"));
    assertThat(table)
        .startsWith("Run ")
        .contains("(Table): completed")
        .contains("KO insert: 1 × SQLState 23505: duplicate key")
        .contains("WARNING: injector saturated — latencies are not trustworthy");
  }

  @Test
  void errorsAreGroupedByWhoFailedInTheTableTheHtmlAndSummaryJson() throws Exception {
    Path directory;
    try (RunRecorder run = RunRecorder.open(RunOptions.of("Classes").withBaseDirectory(base))) {
      long t = System.nanoTime();
      RequestChannel q = run.request("q");
      for (int i = 0; i < 5; i++) {
        q.ko(t, t + 1_000_000, "injector queue full");
      }
      q.ko(t, t + 1_000_000, "injector queue full");
      for (int i = 0; i < 3; i++) {
        q.ko(t, t + 1_000_000, "connection refused (http://a:9200)");
      }
      run.request("insert").ko(t, t + 1_000_000, "SQLState 23505: duplicate key");
      run.request("insert").ko(t, t + 1_000_000, "SQLState 08006: I/O error");
      directory = run.directory();
    }
    RunData data = RunData.load(directory);
    assertThat(SummaryTable.errors(data.summaries()).lines().toList())
        .containsExactly(
            "KO by class: server 1, network 4, injector 6",
            "  server:",
            "    KO insert: 1 × SQLState 23505: duplicate key",
            "  network:",
            "    KO q: 3 × connection refused (http://a:9200)",
            "    KO insert: 1 × SQLState 08006: I/O error",
            "  injector:",
            "    KO q: 6 × injector queue full");
    assertThat(SummaryTable.render(data)).contains("KO by class: server 1, network 4, injector 6");

    Report report = Report.create(List.of(directory), List.of());
    var json = report.summaryJson();
    assertThat(json.path("koByClass").toString())
        .isEqualTo("{\"server\":1,\"network\":4,\"injector\":6}");
    assertThat(json.path("requests").toString())
        .contains("\"koByClass\":{\"server\":0,\"network\":3,\"injector\":6}");
    String html = io.fusillade.reports.html.ReportPage.render(data, report.results(), "Classes");
    assertThat(html)
        .contains("KO by class: server 1, network 4, injector 6")
        .contains("<tr><td>injector</td><td>q</td><td class=\"text\">injector queue full</td>");
  }

  @Test
  void nothingFailedPrintsNoErrorLines() throws Exception {
    Path directory;
    try (RunRecorder run = RunRecorder.open(RunOptions.of("Fine").withBaseDirectory(base))) {
      long t = System.nanoTime();
      run.request("q").ok(t, t + 1_000_000);
      directory = run.directory();
    }
    assertThat(SummaryTable.errors(RunData.load(directory).summaries())).isEmpty();
  }

  @Test
  void summaryAndReportPrintTheSameTable() throws Exception {
    Path directory;
    try (RunRecorder run = RunRecorder.open(RunOptions.of("Same").withBaseDirectory(base))) {
      long t = System.nanoTime();
      for (int i = 1; i <= 100; i++) {
        run.request("q").ok(t, t + i * 10_000L);
      }
      directory = run.directory();
    }
    RunData run = RunData.load(directory);
    String body = SummaryTable.body(run);
    assertThat(body).contains("p90 ms", "p95 ms", "p99.9 ms");
    assertThat(SummaryTable.render(run)).endsWith(body);
    String console = Report.create(List.of(directory), List.of("p99 < 1s")).consoleText();
    assertThat(console)
        .contains(body)
        .containsPattern(
            "passed: p99 < 1s — p99 of all 100 requests \\(OK and KO\\) = 0\\.99\\d ms, below the"
                + " limit 1,000 ms\\R$");
  }
}
