package io.fusillade.reports.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.html.ReportPage;
import io.fusillade.reports.runs.SyntheticRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every number the console prints reaches {@code summary.json} and the HTML report: for one run of
 * each protocol, each cell of the console's request table and of its table of other distributions
 * (injector lag, end-to-end latency, time-to-searchable...) is found, formatted the same, in {@code
 * summary.json} ({@code requests}, {@code distributions}) and in the HTML tables ({@code
 * #requests}, {@code #distributions}).
 *
 * <p>The records are written by {@link SyntheticRecord} with every kind of data a real run of that
 * protocol writes (as {@code fusillade run} wrote them for {@code workloads/accounts.yml}, {@code
 * topics-demo.yml} and {@code web-logs.yml}): requests with their bytes, the injector lag, the
 * protocol's metrics (a topic's end-to-end latency; a log store's time-to-searchable and bulk build
 * time), its counters (messages and bytes produced and consumed; documents, bytes, failed and
 * rejected items, time-to-searchable timeouts), its gauges (the machine, the injector process, the
 * consumer lag, the brokers' throttle and disk) and its health entries (injector lag, the machine,
 * a topic's delivery and lag trend).
 */
class EveryOutputTest {
  @TempDir Path base;

  /** The console columns and the fields of {@code summary.json} that hold them. */
  private static final Map<String, String> REQUEST_FIELDS = fields();

  private static Map<String, String> fields() {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("count", "count");
    f.put("OK", "ok");
    f.put("KO", "ko");
    f.put("rate/s", "rate");
    f.put("p50 ms", "p50Ms");
    f.put("p90 ms", "p90Ms");
    f.put("p95 ms", "p95Ms");
    f.put("p99 ms", "p99Ms");
    f.put("p99.9 ms", "p999Ms");
    f.put("max ms", "maxMs");
    return f;
  }

  private static Map<String, Object> injectorLag() {
    Map<String, Object> lag = new LinkedHashMap<>();
    lag.put("ticks", 3984);
    lag.put("p50Ms", 0.133);
    lag.put("p99Ms", 1.88);
    lag.put("maxMs", 64.4);
    lag.put("thresholdMs", 20.0);
    lag.put("saturated", false);
    lag.put("warmUpMs", 5000.0);
    lag.put("lateTicks", 3);
    lag.put("eventLoops", 2);
    return lag;
  }

  private static Map<String, Object> system() {
    Map<String, Object> system = new LinkedHashMap<>();
    system.put("source", "/proc");
    system.put("samples", 20);
    system.put("cpuBusyAvgPercent", 61.2);
    system.put("cpuStealAvgPercent", 0.4);
    system.put("cpuStealMaxPercent", 1.5);
    system.put("stealThresholdPercent", 5.0);
    system.put("starved", false);
    return system;
  }

  /** A record with the machine's gauges and health, as every real run has them. */
  private static SyntheticRecord machine(SyntheticRecord record) {
    return record
        .health("injectorLag", injectorLag())
        .health("system", system())
        .gauge("system.cpu.user", s -> 40 + s % 5)
        .gauge("system.cpu.system", s -> 8)
        .gauge("system.cpu.iowait", s -> 0.5)
        .gauge("system.cpu.steal", s -> 0.4)
        .gauge("system.cpu.0.idle", s -> 45)
        .gauge("system.cpu.1.idle", s -> 50)
        .gauge("system.load1", s -> 1.8)
        .gauge("system.memory.used", s -> 1.2e9)
        .gauge("system.memory.available", s -> 2.4e10)
        .gauge("system.disk.write", s -> 1.8e6)
        .gauge("system.net.lo.rx", s -> 1.6e6)
        .gauge("process.injector.cpu", s -> 60)
        .gauge("process.injector.rss", s -> 5.2e8);
  }

  @Test
  void aSqlRunsNumbersAreTheSameInEveryOutput() throws Exception {
    Path run =
        machine(
                SyntheticRecord.run()
                    .seconds(20)
                    .names(List.of("query1", "query2"))
                    .rate(50)
                    .median(s -> s == 0 ? 120_000 : 950)
                    .ko("query2", s -> s == 5 ? 0.5 : 0)
                    .koReasons("SQLState 57014: canceling statement due to statement timeout")
                    .parameter("rate", 100))
            .write(base, "sql");
    sameEverywhere(run);
  }

  @Test
  void aTopicRunsNumbersAreTheSameInEveryOutput() throws Exception {
    Map<String, Object> delivery = new LinkedHashMap<>();
    delivery.put("acknowledged", 1000);
    delivery.put("received", 1000);
    delivery.put("lost", 0);
    delivery.put("duplicated", 0);
    delivery.put("outOfOrder", 0);
    delivery.put("exact", true);
    Map<String, Object> trend = new LinkedHashMap<>();
    trend.put("verdict", "flat");
    trend.put("notGrowing", true);
    trend.put("slopePerSecond", 0.1);
    trend.put("pValue", 0.4);
    trend.put("thresholdPerSecond", 2.0);
    trend.put("samples", 6);
    Map<String, Object> topic = new LinkedHashMap<>();
    topic.put("consumers", 2);
    topic.put("partitions", 4);
    topic.put("delivery", delivery);
    topic.put("lagTrend", trend);
    topic.put("drained", true);
    Path run =
        machine(
                SyntheticRecord.run()
                    .seconds(8)
                    .names(List.of("write events"))
                    .rate(200)
                    .bytes(1024)
                    .median(60_000)
                    .metric("e2e events", s -> 72_000)
                    .counter("topic.events.produced.messages", 200)
                    .counter("topic.events.produced.bytes", 204_800)
                    .counter("topic.events.consumed.messages", 200)
                    .counter("topic.events.consumed.bytes", 204_800)
                    .gauge("topic.events.lag", s -> 30 + s % 7)
                    .gauge("topic.producer.throttle.avg", s -> 0)
                    .gauge("directory.kafka.bytes", s -> 1e6 * (s + 1)))
            .health("topic.events", topic)
            .write(base, "topics");
    sameEverywhere(run);
  }

  @Test
  void aLogRunsNumbersAreTheSameInEveryOutputTimeToSearchableIncluded() throws Exception {
    Path run =
        machine(
                SyntheticRecord.run()
                    .seconds(11)
                    .names(List.of("bulk", "status in", "count by status"))
                    .rate(6)
                    .bytes(726_757)
                    .median(s -> 290_000)
                    .metricValues(1)
                    .metric("logs bulk build", s -> 6_800)
                    .metric("time-to-searchable", s -> 1_431_000)
                    .counter("logs.documents", 5000)
                    .counter("logs.bytes", 726_757)
                    .counter("logs.wireBytes", 726_757)
                    .counter("logs.failedItems", 0)
                    .counter("logs.rejectedItems", 0)
                    .counter("time-to-searchable timeouts", 0))
            .write(base, "logs");
    sameEverywhere(run);
    Report report = Report.create(List.of(run), List.of());
    // the console showed time-to-searchable; summary.json had only its timeouts
    assertThat(report.consoleText()).contains("time-to-searchable");
    assertThat(report.summaryJson().path("distributions").has("time-to-searchable")).isTrue();
    String html = ReportPage.render(report.run(), report.results(), "t");
    assertThat(html).contains("<title>Time-to-searchable (a document written until a search");
  }

  /** Each cell of the console's two tables is in summary.json and in the HTML tables. */
  private static void sameEverywhere(Path run) {
    Report report = Report.create(List.of(run), List.of());
    String console = report.consoleText();
    JsonNode json = report.summaryJson();
    String html = ReportPage.render(report.run(), report.results(), "t");

    List<Map<String, String>> requests = table(console, "request");
    assertThat(requests).as(console).isNotEmpty();
    for (Map<String, String> row : requests) {
      String name = row.get("request");
      JsonNode summary = null;
      for (JsonNode r : json.path("requests")) {
        if (r.path("name").asText().equals(name)) {
          summary = r;
        }
      }
      assertThat(summary).as("summary.json request %s", name).isNotNull();
      List<String> htmlRow = htmlRow(html, "requests", name);
      for (Map.Entry<String, String> column : REQUEST_FIELDS.entrySet()) {
        String shown = row.get(column.getKey());
        assertThat(formatted(summary.path(column.getValue())))
            .as("summary.json %s of %s", column.getValue(), name)
            .isEqualTo(shown);
        assertThat(htmlRow).as("HTML row of %s", name).contains(shown);
      }
    }

    List<Map<String, String>> metrics = table(console, "metric");
    assertThat(metrics).as(console).isNotEmpty();
    for (Map<String, String> row : metrics) {
      String name = row.get("metric");
      JsonNode summary = json.path("distributions").path(name);
      assertThat(summary.isMissingNode()).as("summary.json distribution %s", name).isFalse();
      List<String> htmlRow = htmlRow(html, "distributions", name);
      for (String column : List.of("count", "p50 ms", "p99 ms", "p99.9 ms", "max ms")) {
        String shown = row.get(column);
        assertThat(formatted(summary.path(REQUEST_FIELDS.get(column))))
            .as("summary.json %s of %s", column, name)
            .isEqualTo(shown);
        assertThat(htmlRow).as("HTML row of %s", name).contains(shown);
      }
    }
  }

  /** A JSON number as the console prints it: a count as is, a measure by {@link Numbers}. */
  private static String formatted(JsonNode value) {
    return value.isIntegralNumber() ? value.asText() : Numbers.number(value.asDouble());
  }

  /** The console table whose header starts with {@code first}: one map per row, by column. */
  private static List<Map<String, String>> table(String console, String first) {
    List<Map<String, String>> rows = new ArrayList<>();
    String[] header = null;
    for (String line : console.split("\\R")) {
      String[] cells = line.strip().split("\\s{2,}");
      if (header == null) {
        if (cells[0].equals(first)) {
          header = cells;
        }
        continue;
      }
      if (cells.length != header.length) {
        break; // the table ended
      }
      Map<String, String> row = new LinkedHashMap<>();
      for (int i = 0; i < header.length; i++) {
        row.put(header[i], cells[i]);
      }
      rows.add(row);
    }
    return rows;
  }

  /** The cells of the HTML table {@code id}'s row named {@code name}. */
  private static List<String> htmlRow(String html, String id, String name) {
    int table = html.indexOf("<table id=\"" + id + "\">");
    assertThat(table).as("HTML table %s", id).isNotNegative();
    String body = html.substring(table, html.indexOf("</table>", table));
    Matcher row =
        Pattern.compile("<tr><td>" + Pattern.quote(name) + "</td>(.*?)</tr>").matcher(body);
    assertThat(row.find()).as("HTML row %s in %s", name, id).isTrue();
    List<String> cells = new ArrayList<>();
    Matcher cell = Pattern.compile("<td>(.*?)</td>").matcher(row.group(1));
    while (cell.find()) {
      cells.add(cell.group(1));
    }
    return cells;
  }
}
