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
                    Map.of("consumers", 2, "delivery", Map.of("lost", 0, "acknowledged", 10)))
                .health(
                    "topic.events",
                    Map.of(
                        "consumers",
                        2,
                        "partitions",
                        4,
                        "drained",
                        true,
                        "lagTrend",
                        Map.of(
                            "verdict",
                            "flat",
                            "notGrowing",
                            true,
                            "slopePerSecond",
                            0.0,
                            "pValue",
                            0.5,
                            "thresholdPerSecond",
                            2.05,
                            "samples",
                            12)))
                .health("custom", Map.of("slopePerSecond", 0.25, "notGrowing", true)));
    String health = html.substring(html.indexOf("<h2>Health</h2>"));
    assertThat(health)
        .contains("<td>injector lag</td>")
        .contains("p99 31.5 ms")
        .contains("class=\"fail\">SATURATED")
        .contains("<td>CPU steal</td>")
        .contains("average 0.5%, max 2%")
        .contains("class=\"pass\">OK")
        .contains("<td>topic.orders</td>")
        .contains("consumers 2")
        // in words, not (verdict: flat, notGrowing: true, slopePerSecond: 0, ...)
        .contains("<td>topic events</td>")
        .contains(
            "2 consumers on 4 partitions; consumer lag while the load ran: flat (slope 0"
                + " messages/s, p=0.5, over 12 seconds); growing means a slope above 2.05"
                + " messages/s with p below 0.01, over the second half of the load; the consumers"
                + " read up to the end before the drain timeout")
        .containsPattern(
            "(slope per second 0.25, not growing yes|not growing yes, slope per" + " second 0.25)")
        .doesNotContain("delivery")
        .doesNotContain("verdict:")
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

  @Test
  void aLegendNameIsNeverCutAndTheLongestWrapsOverLines() {
    String longName = "server db: container postgres-primary-with-a-very-long-name working set";
    String svg =
        SvgChart.titled("t")
            .x("seconds", new double[] {1, 2, 3})
            .y("MB")
            .series(
                List.of(
                    new SvgChart.Series(longName + " and more words", new double[] {1, 2, 3}),
                    new SvgChart.Series("b", new double[] {2, 3, 4})))
            .render();
    assertThat(svg).doesNotContain("…");
    String legend = svg.substring(svg.indexOf(">seconds</text>"));
    assertThat(legend.replaceAll("<[^>]+>", " ").replaceAll("\\s+", " "))
        .contains(longName + " and more words");
    assertThat(SvgChart.wrap("a b c d", 3)).containsExactly("a b", "c d");
  }

  @Test
  void aKoChartOfARunWithoutFailuresSaysZeroKoAndCountersAreChartedByUnit() throws Exception {
    String html =
        report(
            SyntheticRecord.run()
                .counter("logs.documents", 5000)
                .counter("logs.bytes", 700_000)
                .counter("topic.events.produced.messages", 200));
    String errors = html.substring(html.indexOf("<title>Errors (KO) per second"));
    assertThat(errors.substring(0, errors.indexOf("</svg>")))
        .contains("0 KO: no request failed")
        .doesNotContain("no data");
    String items = html.substring(html.indexOf("<title>Counters per second: documents"));
    assertThat(items.substring(0, items.indexOf("</svg>")))
        .contains(">logs.documents<")
        .contains(">topic.events.produced.messages<")
        .doesNotContain("logs.bytes");
    String bytes = html.substring(html.indexOf("<title>Counters per second: bytes"));
    assertThat(bytes.substring(0, bytes.indexOf("</svg>")))
        .contains(">logs.bytes<")
        .contains(">MB/s<");
  }

  @Test
  void limitChartsArePointsSortedByRateWithTheConfirmationRingedAndP99OnALogAxis()
      throws Exception {
    List<Map<String, Object>> steps = new java.util.ArrayList<>();
    double[][] tried = {
      {1, 100, 100, 0.5, 1}, {2, 400, 400, 0.6, 2}, {3, 1600, 900, 40, 900},
      {4, 800, 800, 0.7, 3}, {5, 1200, 1100, 9, 120}, {6, 800, 800, 0.6, 2.5}
    };
    for (double[] t : tried) {
      steps.add(
          new io.fusillade.limit.StepResult(
                  (int) t[0],
                  t[0] == 6 ? "confirm" : t[0] <= 3 ? "ramp" : "bisect",
                  (t[0] - 1) * 5,
                  t[0] * 5,
                  t[1],
                  t[2],
                  t[3],
                  t[4],
                  0,
                  null,
                  null,
                  t[4] > 100 ? List.of("p99 too high") : List.of())
              .toMap());
    }
    Map<String, Object> limit = new java.util.LinkedHashMap<>();
    limit.put("verdict", "found");
    limit.put("rate", 800);
    limit.put("sustained", 800);
    limit.put("steps", steps);
    String html = report(SyntheticRecord.run().parameter("limit", limit));
    String section =
        html.substring(
            html.indexOf("<h2 id=\"limit\">"),
            html.indexOf("<table>", html.indexOf("<h2 id=\"limit\">")));
    // a dot per step, the two steps at 800/s at one x; no line joins them in time order
    String achieved = section.substring(0, section.indexOf("</svg>"));
    assertThat(Pattern.compile("r=\"3.5\"").matcher(achieved).results().count())
        .isEqualTo(6 + 2); // six steps and the swatches of passed and failed steps
    assertThat(achieved).contains(">confirmation<").contains("r=\"6\"");
    String latency = section.substring(section.indexOf("<title>p99 and p50 latency"));
    assertThat(latency.substring(0, latency.indexOf("</svg>")))
        .contains("log scale")
        .contains(">confirmation p99<")
        .doesNotContain("<polyline");
  }

  private static double y(String svg, String endOfText) {
    int end = svg.indexOf(endOfText);
    int start = svg.lastIndexOf("<text", end);
    Matcher m = Pattern.compile("y=\"([0-9.]+)\"").matcher(svg.substring(start, end));
    assertThat(m.find()).isTrue();
    return Double.parseDouble(m.group(1));
  }
}
