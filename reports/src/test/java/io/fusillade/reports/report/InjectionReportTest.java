package io.fusillade.reports.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.SyntheticRecord;
import io.fusillade.reports.summary.SummaryTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests injected to fail during part of a run: the HTML report's before/during/after table and
 * orange band, {@code summary.json}'s {@code injection} and the console line; none of them when the
 * injection spans the whole run (or for {@code summary.json}, when there is none).
 */
class InjectionReportTest {
  private static final String INJECTED = "injected syntax error";
  private static final String TABLE = "before, during and after the injected requests";

  @TempDir Path base;

  /** 30 s of {@code q}; injected requests sent in {@code injectedSeconds}, q slow meanwhile. */
  private Path run(String id, java.util.function.IntPredicate injectedSeconds) throws Exception {
    return SyntheticRecord.run()
        .seconds(30)
        .names(List.of("q", INJECTED))
        .rate(200)
        .rate(INJECTED, s -> injectedSeconds.test(s) ? 20 : 0)
        .ko(INJECTED, s -> 1)
        .median(s -> s >= 10 && s < 20 ? 20_000 : 2_000)
        .ko(s -> s >= 10 && s < 20 ? 0.1 : 0)
        .write(base, id);
  }

  @Test
  void aWindowedInjectionIsATableABandASummaryEntryAndALine() throws Exception {
    Report report = Report.create(List.of(run("windowed", s -> s >= 10 && s < 20)), List.of());
    Path out = base.resolve("out");
    report.write(out);

    String html = Files.readString(out.resolve("index.html"));
    assertThat(html)
        .contains(TABLE)
        .contains("<tr><td>before</td><td>0–10 s</td><td>2000</td><td>0.0%</td>")
        .contains("<tr><td>during</td><td>10–20 s</td><td>2000</td>")
        .contains("<tr><td>after</td><td>20–30 s</td><td>2000</td><td>0.0%</td>")
        .contains("Orange band")
        .contains("fill=\"#fdebd3\"><title>injected</title>");

    JsonNode injection =
        new ObjectMapper().readTree(out.resolve("summary.json").toFile()).get("injection");
    assertThat(injection).isNotNull();
    assertThat(injection.get("fromSeconds").asDouble()).isEqualTo(10.0);
    assertThat(injection.get("toSeconds").asDouble()).isEqualTo(20.0);
    JsonNode periods = injection.get("periods");
    assertThat(periods).hasSize(3);
    assertThat(periods.findValuesAsText("period")).containsExactly("before", "during", "after");
    JsonNode during = periods.get(1);
    assertThat(during.get("fromSeconds").asDouble()).isEqualTo(10.0);
    assertThat(during.get("toSeconds").asDouble()).isEqualTo(20.0);
    assertThat(during.get("requests").asLong()).isEqualTo(2000);
    assertThat(during.get("ko").asLong()).isBetween(150L, 250L);
    assertThat(during.get("koPercent").asDouble())
        .isEqualTo(100.0 * during.get("ko").asLong() / 2000);
    assertThat(during.get("p50Ms").asDouble()).isBetween(18.0, 22.0);
    assertThat(during.get("p99Ms").asDouble()).isBetween(30.0, 50.0);
    assertThat(periods.get(0).get("p99Ms").asDouble()).isBetween(3.0, 5.0);
    assertThat(periods.get(2).get("koPercent").asDouble()).isZero();

    String text = SummaryTable.body(report.run());
    assertThat(text)
        .containsPattern(
            "injected requests from 10 s to 20 s; the workload's own: before p99 [34]\\.\\d+ ms,"
                + " 0\\.0% KO; during p99 [34]\\d\\.\\d ms, ([7-9]|1[0-2])\\.\\d% KO; after p99"
                + " [34]\\.\\d+ ms, 0\\.0% KO");
  }

  @Test
  void anInjectionThroughoutTheRunAddsNoTableNoBandNoLine() throws Exception {
    Report report = Report.create(List.of(run("throughout", s -> true)), List.of());
    String html = io.fusillade.reports.html.ReportPage.render(report.run(), report.results(), "t");
    assertThat(html).contains("Injected requests").doesNotContain(TABLE);
    assertThat(html).doesNotContain("#fdebd3").doesNotContain("Orange band");
    assertThat(SummaryTable.body(report.run())).doesNotContain("injected requests from");

    JsonNode injection = report.summaryJson().get("injection");
    assertThat(injection.get("fromSeconds").asDouble()).isZero();
    assertThat(injection.get("toSeconds").asDouble()).isEqualTo(30.0);
    assertThat(injection.get("periods").findValuesAsText("period")).containsExactly("during");
  }

  @Test
  void aRunWithoutInjectedRequestsHasNoInjectionInItsSummary() throws Exception {
    Path dir = SyntheticRecord.run().seconds(30).write(base, "none");
    Report report = Report.create(List.of(dir), List.of());
    assertThat(report.summaryJson().has("injection")).isFalse();
    assertThat(io.fusillade.reports.html.ReportPage.render(RunData.load(dir), List.of(), "t"))
        .doesNotContain("Injected requests")
        .doesNotContain("#fdebd3");
  }
}
