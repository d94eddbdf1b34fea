package io.fusillade.reports.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.reports.checks.CheckResult;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.RunMetrics;
import io.fusillade.reports.runs.SyntheticRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A topic run's end-to-end latency and delivery counts in the report, summary.json and checks. */
class TopicReportTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path base;

  /**
   * {@code run.json} health {@code topic.<T>} as the topic protocol writes it: {@code acknowledged}
   * spread evenly over the partitions, the losses, duplicates and reorderings in partition 0.
   */
  static Map<String, Object> topicHealth(
      int partitions, long acknowledged, long lost, long duplicated, long outOfOrder) {
    Map<String, Object> delivery = new LinkedHashMap<>();
    delivery.put("acknowledged", acknowledged);
    delivery.put("received", acknowledged - lost);
    delivery.put("lost", lost);
    delivery.put("duplicated", duplicated);
    delivery.put("outOfOrder", outOfOrder);
    delivery.put("receivedUnacknowledged", 0);
    delivery.put("foreign", 0);
    delivery.put("exact", lost == 0 && duplicated == 0 && outOfOrder == 0);
    List<Map<String, Object>> perPartition = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      long acked = acknowledged / partitions;
      perPartition.add(
          Map.of(
              "partition",
              p,
              "acknowledged",
              acked,
              "received",
              acked - (p == 0 ? lost : 0),
              "lost",
              p == 0 ? lost : 0,
              "duplicated",
              p == 0 ? duplicated : 0,
              "outOfOrder",
              p == 0 ? outOfOrder : 0));
    }
    delivery.put("perPartition", perPartition);
    Map<String, Object> health = new LinkedHashMap<>();
    health.put("consumers", 2);
    health.put("partitions", partitions);
    health.put("delivery", delivery);
    health.put("lagTrend", Map.of("verdict", "flat", "notGrowing", true));
    health.put("drained", true);
    return health;
  }

  private Path topicRun(String id, Map<String, Object> health) throws Exception {
    return SyntheticRecord.run()
        .metric("e2e events", s -> 4_000)
        .health("topic.events", health)
        .write(base, id);
  }

  private static CheckResult result(Report report, String check) {
    return report.results().stream().filter(r -> r.check().equals(check)).findFirst().orElseThrow();
  }

  @Test
  void endToEndLatencyIsInTheHtmlTablesAChartAndSummaryJson() throws Exception {
    Path dir = topicRun("e2e", topicHealth(4, 2000, 0, 0, 0));
    Report report = Report.create(List.of(dir), List.of());
    Path out = base.resolve("out");
    report.write(out);
    Histogram e2e = report.run().metrics().get("e2e events");
    assertThat(e2e.getTotalCount()).isEqualTo(1000);
    String p99 = Numbers.number(e2e.getValueAtPercentile(99) / 1000.0);

    String html = Files.readString(out.resolve("index.html"));
    String table = html.substring(html.indexOf("<table id=\"e2e\">"));
    table = table.substring(0, table.indexOf("</table>"));
    assertThat(table).contains("<td>events</td><td>1000</td>").contains("<td>" + p99 + "</td>");
    String chart = html.substring(html.indexOf("End-to-end latency: events"));
    chart = chart.substring(0, chart.indexOf("</svg>"));
    assertThat(chart).contains("<polyline").contains(">p50<").contains(">p99<").contains(">max<");

    JsonNode topic = JSON.readTree(out.resolve("summary.json").toFile()).path("topics");
    JsonNode json = topic.path("events").path("e2e");
    assertThat(json.path("count").asLong()).isEqualTo(1000);
    assertThat(json.path("p99Ms").asDouble()).isEqualTo(e2e.getValueAtPercentile(99) / 1000.0);
    assertThat(json.path("maxMs").asDouble()).isEqualTo(e2e.getMaxValue() / 1000.0);
    for (String field : List.of("meanMs", "p50Ms", "p90Ms", "p95Ms", "p999Ms")) {
      assertThat(json.has(field)).as(field).isTrue();
    }
    // and what intervals, compare and trend follow over runs
    assertThat(RunMetrics.of(report.run())).containsKeys("p50 [e2e events]", "p99 [e2e events]");
  }

  @Test
  void theChartFollowsTheEndToEndLatencySecondBySecond() throws Exception {
    Path dir =
        SyntheticRecord.run()
            .seconds(10)
            .metric("e2e events", s -> s < 5 ? 2_000 : 40_000)
            .write(base, "chart");
    double[][] rows = RunData.load(dir).metricPerSecond("e2e events");
    assertThat(rows).hasNumberOfRows(RunData.SECOND_PERCENTILES.length);
    assertThat(rows[0]).hasSize(10);
    assertThat(rows[0][2]).isBetween(1.5, 2.5); // p50 in ms, the first half
    assertThat(rows[0][7]).isBetween(30.0, 50.0); // the second half
  }

  @Test
  void latencyChecksNameAMetricWhenNoRequestHasThatName() throws Exception {
    Path dir = topicRun("checks", topicHealth(1, 2000, 0, 0, 0));
    double p99 = RunData.load(dir).metrics().get("e2e events").getValueAtPercentile(99) / 1000.0;
    Report report =
        Report.create(
            List.of(dir),
            List.of(
                "p99 < 50ms for \"e2e events\"",
                "p99 < 1ms for \"e2e events\"",
                "p99 < 50ms for \"e2e nope\""));
    CheckResult passed = result(report, "p99 < 50ms for \"e2e events\"");
    assertThat(passed.passed()).isTrue();
    assertThat(passed.measured()).isEqualTo("p99 = " + Numbers.number(p99) + " ms");
    assertThat(result(report, "p99 < 1ms for \"e2e events\"").passed()).isFalse();
    CheckResult unknown = result(report, "p99 < 50ms for \"e2e nope\"");
    assertThat(unknown.passed()).isFalse();
    assertThat(unknown.measured())
        .isEqualTo(
            "no request or metric named \"e2e nope\" (requests: \"q\"; metrics: \"e2e events\","
                + " \"injector.lag\")");
  }

  @Test
  void theDeliveryTableReplacesTheRawMapUnderHealthAndGoesIntoSummaryJson() throws Exception {
    Path dir = topicRun("delivery", topicHealth(4, 2000, 3, 2, 1));
    Report report = Report.create(List.of(dir), List.of());
    Path out = base.resolve("out");
    report.write(out);
    String html = Files.readString(out.resolve("index.html"));
    String table = html.substring(html.indexOf("<table id=\"delivery\">"));
    table = table.substring(0, table.indexOf("</table>"));
    assertThat(table)
        .contains(
            "<td>events</td><td>4</td><td>2</td><td>2000</td><td>1997</td><td>3</td><td>2</td>"
                + "<td>1</td><td>0</td><td>0</td><td>yes</td><td>flat</td>")
        .contains("NOT exact");
    assertThat(html).contains("Delivery per partition: events");
    assertThat(html).contains("<tr><td>0</td><td>500</td><td>497</td><td>3</td><td>2</td>");
    String health = html.substring(html.indexOf("<h2>Health</h2>"));
    assertThat(health)
        .contains("<td>topic events</td>")
        .contains("2 consumers on 4 partitions; consumer lag while the load ran: flat;")
        .contains("the consumers read up to the end before the drain timeout");
    assertThat(health).doesNotContain("acknowledged").doesNotContain("perPartition");

    JsonNode delivery =
        JSON.readTree(out.resolve("summary.json").toFile())
            .path("topics")
            .path("events")
            .path("delivery");
    assertThat(delivery.path("acknowledged").asLong()).isEqualTo(2000);
    assertThat(delivery.path("received").asLong()).isEqualTo(1997);
    assertThat(delivery.path("lost").asLong()).isEqualTo(3);
    assertThat(delivery.path("duplicated").asLong()).isEqualTo(2);
    assertThat(delivery.path("outOfOrder").asLong()).isEqualTo(1);
    assertThat(delivery.path("exact").asBoolean()).isFalse();
    assertThat(delivery.path("perPartition")).hasSize(4);
    assertThat(delivery.path("perPartition").get(0).path("lost").asLong()).isEqualTo(3);

    assertThat(report.consoleText())
        .contains(
            "topic events: 2000 acknowledged, 1997 received, 3 lost, 2 duplicated, 1 out of order"
                + " (NOT exact)");
  }

  /**
   * A topic written by three producers of its own ({@code producers: 3}): the report has a table
   * per producer, and summary.json the same counts, so a writer whose messages went missing is
   * named.
   */
  @Test
  void aTopicOfSeveralProducersShowsItsDeliveryPerProducer() throws Exception {
    Map<String, Object> health = topicHealth(2, 3000, 4, 0, 0);
    @SuppressWarnings("unchecked")
    Map<String, Object> delivery = (Map<String, Object>) health.get("delivery");
    delivery.put(
        "perProducer",
        List.of(
            Map.of("producer", 0, "acknowledged", 1000, "received", 996, "lost", 4),
            Map.of("producer", 1, "acknowledged", 1000, "received", 1000, "lost", 0),
            Map.of("producer", 2, "acknowledged", 1000, "received", 1000, "lost", 0)));
    Path dir = topicRun("producers", health);
    Report report = Report.create(List.of(dir), List.of());
    Path out = base.resolve("out");
    report.write(out);

    String html = Files.readString(out.resolve("index.html"));
    String table = html.substring(html.indexOf("Delivery per producer: events"));
    table = table.substring(0, table.indexOf("</table>"));
    assertThat(table)
        .contains("<tr><td>0</td><td>1000</td><td>996</td><td>4</td><td>0</td><td>0</td></tr>")
        .contains("<tr><td>2</td><td>1000</td><td>1000</td><td>0</td>");
    JsonNode producers =
        JSON.readTree(out.resolve("summary.json").toFile())
            .path("topics")
            .path("events")
            .path("delivery")
            .path("perProducer");
    assertThat(producers).hasSize(3);
    assertThat(producers.get(0).path("producer").asLong()).isZero();
    assertThat(producers.get(0).path("lost").asLong()).isEqualTo(4);
  }

  /**
   * A run stopped before its consumers drained (the topic protocol's {@code toUnverifiedMap}): the
   * summary, the checks and the HTML say what could be verified, and never count the unread message
   * as lost.
   */
  @Test
  void aDeliveryNotVerifiedSaysSoAndCountsNoLoss() throws Exception {
    Map<String, Object> health = topicHealth(1, 817, 1, 0, 0);
    @SuppressWarnings("unchecked")
    Map<String, Object> delivery = (Map<String, Object>) health.get("delivery");
    Map<String, Object> unverified = new LinkedHashMap<>();
    unverified.put("verified", false);
    unverified.put("notVerified", "the run stopped before the drain");
    delivery.forEach((key, value) -> unverified.put(key.equals("lost") ? "unread" : key, value));
    unverified.put("exact", false);
    unverified.put(
        "perPartition",
        List.of(
            Map.of(
                "partition",
                0,
                "acknowledged",
                817,
                "received",
                816,
                "unread",
                1,
                "duplicated",
                0,
                "outOfOrder",
                0)));
    health.put("delivery", unverified);
    health.put("drained", false);
    Path dir = topicRun("stopped", health);
    Report report = Report.create(List.of(dir), List.of("no messages lost", "delivery exact"));

    String line = "not verified: the run stopped before the drain; 1 acknowledged message unread";
    assertThat(report.consoleText())
        .contains("topic events: 817 acknowledged, 816 received, " + line)
        .doesNotContain("1 lost");
    for (String check : List.of("no messages lost", "delivery exact")) {
      CheckResult result = result(report, check);
      assertThat(result.passed()).as(check).isFalse();
      assertThat(result.measured()).as(check).isEqualTo(line);
    }
    Path out = base.resolve("out");
    report.write(out);
    String html = Files.readString(out.resolve("index.html"));
    String table = html.substring(html.indexOf("<table id=\"delivery\">"));
    table = table.substring(0, table.indexOf("</table>"));
    assertThat(table).contains("<td>816</td><td>-</td>").contains(line).doesNotContain("NOT exact");
    JsonNode json = report.summaryJson().path("topics").path("events").path("delivery");
    assertThat(json.path("verified").asBoolean()).isFalse();
    assertThat(json.path("unread").asLong()).isEqualTo(1);
    assertThat(json.path("lost").asLong()).isZero();
  }

  @Test
  void manyPartitionsShowTheirTotalsOnlyInTheHtml() throws Exception {
    Path dir = topicRun("many", topicHealth(20, 2000, 0, 0, 0));
    Report report = Report.create(List.of(dir), List.of());
    report.write(base.resolve("out"));
    String html = Files.readString(base.resolve("out").resolve("index.html"));
    assertThat(html).doesNotContain("Delivery per partition").contains("20 partitions");
    JsonNode delivery = report.summaryJson().path("topics").path("events").path("delivery");
    assertThat(delivery.path("perPartition")).hasSize(20);
    assertThat(delivery.path("exact").asBoolean()).isTrue();
  }

  @Test
  void noMessagesLostAndDeliveryExactSayWhatTheyCounted() throws Exception {
    Path clean = topicRun("clean", topicHealth(2, 2000, 0, 0, 0));
    Path lossy = topicRun("lossy", topicHealth(2, 2000, 3, 0, 0));
    Path duplicates = topicRun("dups", topicHealth(2, 2000, 0, 2, 0));
    List<String> checks =
        List.of(
            "no messages lost",
            "delivery exact",
            "no messages lost for events",
            "no messages lost for \"orders\"");

    Report ok = Report.create(List.of(clean), checks);
    assertThat(result(ok, "no messages lost").passed()).isTrue();
    assertThat(result(ok, "no messages lost").message())
        .isEqualTo(
            "passed: no messages lost — lost = 0 of 2,000 acknowledged, 2,000 received; the"
                + " rule: every message the broker acknowledged received");
    assertThat(result(ok, "delivery exact").passed()).isTrue();
    assertThat(result(ok, "delivery exact").measured())
        .isEqualTo(
            "lost = 0, duplicated = 0, out of order = 0 of 2,000 acknowledged, 2,000 received");
    assertThat(result(ok, "no messages lost for events").passed()).isTrue();
    CheckResult other = result(ok, "no messages lost for \"orders\"");
    assertThat(other.passed()).isFalse();
    assertThat(other.measured())
        .isEqualTo("no delivery counts for topic \"orders\" (topics: events)");

    Report lost = Report.create(List.of(lossy), checks);
    assertThat(result(lost, "no messages lost").passed()).isFalse();
    assertThat(result(lost, "no messages lost").measured())
        .startsWith("lost = 3 of 2,000 acknowledged");
    assertThat(result(lost, "delivery exact").passed()).isFalse();

    Report twice = Report.create(List.of(duplicates), checks);
    assertThat(result(twice, "no messages lost").passed()).isTrue();
    assertThat(result(twice, "delivery exact").passed()).isFalse();
    assertThat(result(twice, "delivery exact").measured())
        .startsWith("lost = 0, duplicated = 2, out of order = 0 of 2,000 acknowledged");
  }

  @Test
  void withoutDeliveryCountsOrAcknowledgedMessagesTheChecksFail() throws Exception {
    Path none = SyntheticRecord.run().write(base, "none");
    CheckResult r = Report.create(List.of(none), List.of("no messages lost")).results().get(1);
    assertThat(r.passed()).isFalse();
    assertThat(r.measured()).startsWith("no delivery counts in the run record");

    Path empty = topicRun("empty", topicHealth(1, 0, 0, 0, 0));
    CheckResult nothing = Report.create(List.of(empty), List.of("delivery exact")).results().get(1);
    assertThat(nothing.passed()).isFalse();
    assertThat(nothing.measured()).isEqualTo("no message acknowledged");
  }

  @Test
  void twoInjectorsCountsAreSummedPartitionByPartition() throws Exception {
    Path one = topicRun("inj-1", topicHealth(2, 1000, 1, 0, 0));
    Path two =
        SyntheticRecord.run()
            .pid(4243)
            .seed(2)
            .metric("e2e events", s -> 4_000)
            .health("topic.events", topicHealth(2, 3000, 2, 0, 0))
            .write(base, "inj-2");
    Report report = Report.create(List.of(one, two), List.of("no messages lost"));
    assertThat(report.results().get(1).measured())
        .isEqualTo("lost = 3 of 4,000 acknowledged, 3,997 received");
    JsonNode delivery = report.summaryJson().path("topics").path("events").path("delivery");
    assertThat(delivery.path("consumers").asInt()).isEqualTo(4);
    assertThat(delivery.path("perPartition").get(0).path("acknowledged").asLong()).isEqualTo(2000);
    assertThat(delivery.path("perPartition").get(0).path("lost").asLong()).isEqualTo(3);
    assertThat(
            report.summaryJson().path("topics").path("events").path("e2e").path("count").asLong())
        .isEqualTo(2000);
  }

  @Test
  void recordsWrittenBeforePerPartitionCountsSumTheirStreams() throws Exception {
    Map<String, Object> health = topicHealth(2, 400, 1, 0, 0);
    @SuppressWarnings("unchecked")
    Map<String, Object> delivery = (Map<String, Object>) health.get("delivery");
    delivery.remove("perPartition");
    delivery.put(
        "streams",
        List.of(
            Map.of(
                "producer",
                0,
                "partition",
                0,
                "acknowledged",
                100,
                "received",
                99,
                "lost",
                1,
                "duplicated",
                0,
                "outOfOrder",
                0),
            Map.of(
                "producer",
                1,
                "partition",
                0,
                "acknowledged",
                100,
                "received",
                100,
                "lost",
                0,
                "duplicated",
                0,
                "outOfOrder",
                0),
            Map.of(
                "producer",
                0,
                "partition",
                1,
                "acknowledged",
                200,
                "received",
                200,
                "lost",
                0,
                "duplicated",
                0,
                "outOfOrder",
                0)));
    Path dir = topicRun("old", health);
    JsonNode parts =
        Report.create(List.of(dir), List.of())
            .summaryJson()
            .path("topics")
            .path("events")
            .path("delivery")
            .path("perPartition");
    assertThat(parts).hasSize(2);
    assertThat(parts.get(0).path("acknowledged").asLong()).isEqualTo(200);
    assertThat(parts.get(0).path("lost").asLong()).isEqualTo(1);
  }

  @Test
  void aRunWithoutTopicsHasNoTopicSection() throws Exception {
    Path dir = SyntheticRecord.run().write(base, "plain");
    Report report = Report.create(List.of(dir), List.of());
    report.write(base.resolve("out"));
    assertThat(Files.readString(base.resolve("out").resolve("index.html")))
        .doesNotContain("id=\"topics\"");
    assertThat(report.summaryJson().path("topics").isEmpty()).isTrue();
  }
}
