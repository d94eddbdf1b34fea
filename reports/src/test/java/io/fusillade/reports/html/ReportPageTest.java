package io.fusillade.reports.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.reports.report.Report;
import io.fusillade.reports.runs.SyntheticRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report page without a browser: what a Content-Security-Policy keeps, and what it shows. */
class ReportPageTest {
  @TempDir Path base;

  private String report(SyntheticRecord record) throws Exception {
    Path dir = record.write(base, "run");
    Path out = base.resolve("report");
    Report.create(List.of(dir), List.of("p99 < 1ms")).write(out);
    assertThat(out.resolve(Html.STYLESHEET_FILE)).exists();
    return Files.readString(out.resolve("index.html"));
  }

  @Test
  void nothingInlineThatJenkinsCspWouldDropTheStylesheetIsAFileBeside() throws Exception {
    String html = report(SyntheticRecord.run().ko(0.1));
    assertThat(html)
        .doesNotContain("<style")
        .doesNotContain(" style=")
        .doesNotContain("<script")
        .doesNotContain("http://")
        .contains("<link rel=\"stylesheet\" href=\"report.css\">")
        .contains("class=\"fail\">FAILED");
    String css = Files.readString(base.resolve("report").resolve("report.css"));
    assertThat(css).contains(".fail {").contains("th, td {");
  }

  @Test
  void legendsUseFriendlyNames() throws Exception {
    String html =
        report(
            SyntheticRecord.run()
                .gauge("system.cpu.steal", s -> 2)
                .gauge("system.cpu.user", s -> 30)
                .gauge("process.postgres.rss", s -> 1e8));
    assertThat(html)
        .contains(">CPU steal %<")
        .contains(">CPU user %<")
        .contains(">postgres memory (RSS)<");
    assertThat(html).doesNotContain(">system.cpu.steal<").doesNotContain(">process.postgres.rss<");
  }

  @Test
  void theDistributionPlotTheGatlingNoteAndLogAxesWhenLatencySpansDecades() throws Exception {
    String html = report(SyntheticRecord.run().seconds(20).median(s -> s == 10 ? 200_000 : 1_000));
    assertThat(html).contains("<h2>Latency distribution</h2>").contains(">99.9%<");
    assertThat(html).contains("id=\"percentiles-note\"").contains("intended start");
    assertThat(html).contains("log scale").contains("<summary>linear axis</summary>");
  }

  @Test
  void stepsAreShadedOnTheTimeCharts() throws Exception {
    String html =
        report(
            SyntheticRecord.run()
                .parameter("rates", List.of(100, 200))
                .parameter("stepSeconds", 5));
    assertThat(html).contains("class=\"band\"").contains(">100/s<").contains(">200/s<");
    assertThat(report(SyntheticRecord.run().seed(3))).doesNotContain("class=\"band\"");
  }

  @Test
  void healthIsATableWithVerdictsAndLeavesDeliveryToItsOwnSection() throws Exception {
    String html =
        report(
            SyntheticRecord.run()
                .health(
                    "injectorLag",
                    Map.of(
                        "ticks",
                        1200,
                        "p50Ms",
                        0.1,
                        "p99Ms",
                        31.5,
                        "maxMs",
                        80.0,
                        "thresholdMs",
                        20.0,
                        "saturated",
                        true))
                .health(
                    "system",
                    Map.of(
                        "source",
                        "/proc",
                        "samples",
                        10,
                        "cpuBusyAvgPercent",
                        40.0,
                        "cpuStealAvgPercent",
                        0.5,
                        "cpuStealMaxPercent",
                        2.0,
                        "stealThresholdPercent",
                        5.0,
                        "starved",
                        false))
                .health(
                    "topic.orders",
                    Map.of("consumers", 2, "delivery", Map.of("lost", 0, "acknowledged", 10))));
    String health = html.substring(html.indexOf("<h2>Health</h2>"));
    assertThat(health)
        .contains("<td>injector lag</td>")
        .contains("p99 31.5 ms")
        .contains("class=\"fail\">SATURATED")
        .contains("<td>CPU steal</td>")
        .contains("average 0.5%, max 2%")
        .contains("class=\"pass\">OK")
        .contains("<td>topic.orders</td>")
        .contains("consumers: 2")
        .doesNotContain("delivery")
        .doesNotContain("{");
  }

  @Test
  void theLegendSitsBelowTheAxisTitle() {
    String svg =
        SvgChart.titled("t")
            .x("seconds", new double[] {1, 2, 3})
            .y("ms")
            .series(
                List.of(
                    new SvgChart.Series(
                        "a rather long request name for a legend", new double[] {1, 2, 3}),
                    new SvgChart.Series("b", new double[] {2, 3, 4})))
            .render();
    double title = y(svg, ">seconds</text>");
    double legend = y(svg, ">b</text>");
    assertThat(legend - 11)
        .as("legend text top below the axis title's baseline")
        .isGreaterThan(title);
    // two columns: the long name fits whole
    assertThat(svg).contains(">a rather long request name for a legend<");
  }

  private static double y(String svg, String endOfText) {
    int end = svg.indexOf(endOfText);
    int start = svg.lastIndexOf("<text", end);
    Matcher m = Pattern.compile("y=\"([0-9.]+)\"").matcher(svg.substring(start, end));
    assertThat(m.find()).isTrue();
    return Double.parseDouble(m.group(1));
  }
}
