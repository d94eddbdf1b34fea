package io.fusillade.reports.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.limit.AdaptiveCurve;
import io.fusillade.limit.AdaptiveSettings;
import io.fusillade.reports.runs.RunMetrics;
import io.fusillade.reports.runs.SyntheticRecord;
import io.fusillade.reports.summary.SummaryTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An adaptive run's curve ({@code run.json}'s {@code adaptive} parameter) in every view of the run:
 * a chart of the rate and the p99 over time with the settled rate per minute in the HTML report,
 * {@code adaptive.settledRate} and the per-minute list in {@code summary.json}, a line in the
 * console text, and the metric {@code trend} follows.
 */
class AdaptiveReportTest {
  @TempDir Path base;

  @Test
  void theSettledRateIsChartedSummarizedAndTrended() throws Exception {
    AdaptiveCurve curve = new AdaptiveCurve();
    for (int t = 1; t <= 120; t++) {
      double rate = t <= 60 ? 200 + (t % 3) : 100 + (t % 3);
      curve.add(t, rate, rate * 0.98, t <= 60 ? 21 : 42, 0, "up");
    }
    Map<String, Object> adaptive = new LinkedHashMap<>(AdaptiveSettings.DEFAULTS.toMap());
    adaptive.putAll(curve.toMap());
    Path dir =
        SyntheticRecord.run().seconds(120).parameter("adaptive", adaptive).write(base, "adaptive");
    Report report = Report.create(List.of(dir), List.of());
    Path out = base.resolve("out");
    report.write(out);

    String html = Files.readString(out.resolve("index.html"));
    assertThat(html)
        .contains("<h2 id=\"adaptive\">Adaptive rate</h2>")
        .contains("Adaptive rate and p99 over time")
        .contains(">settled rate of the minute (/s)<")
        .contains(">p99 of the window (ms)<")
        .contains("<td>1</td><td>201</td>");

    JsonNode json = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    assertThat(json.at("/adaptive/settledRate").asDouble()).isEqualTo(101.0);
    assertThat(json.at("/adaptive/settledPerMinute/0").asDouble()).isEqualTo(201.0);
    assertThat(json.at("/adaptive/settledPerMinute/1").asDouble()).isEqualTo(101.0);
    assertThat(json.at("/adaptive/rate")).hasSize(120);

    assertThat(SummaryTable.render(report.run()))
        .contains("Adaptive: settled at 101/s over the last minute (per minute: 201, 101;");
    assertThat(RunMetrics.of(report.run()))
        .hasEntrySatisfying(
            RunMetrics.ADAPTIVE_SETTLED, v -> assertThat(v.value()).isEqualTo(101.0));
  }
}
