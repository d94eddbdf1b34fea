package io.fusillade.reports.html;

import static io.fusillade.reports.html.Html.escape;

import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.Delivery;
import io.fusillade.reports.runs.LatencySummary;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.TopicResults;
import java.util.ArrayList;
import java.util.List;

/**
 * The topics of a run in its HTML report: a table of end-to-end latency per topic (the request
 * table's columns), a delivery table (acknowledged, received, lost, duplicated, out of order, per
 * topic and, for a topic of a few partitions or producers, per partition and per producer) and a
 * chart of end-to-end latency over time per topic. Nothing for a run without topics.
 */
final class TopicSection {
  /** The most partitions shown one by one; a topic with more shows its totals only. */
  static final int MAX_PARTITIONS_SHOWN = 16;

  /** The most producers shown one by one; a topic with more shows its totals only. */
  static final int MAX_PRODUCERS_SHOWN = 32;

  /** The most end-to-end latency charts (one per topic). */
  private static final int MAX_CHARTS = 10;

  private TopicSection() {}

  /** Draws one chart of the report: a title, the unit of the y axis, the lines. */
  @FunctionalInterface
  interface Chart {
    void draw(String title, String unit, List<SvgChart.Series> series);
  }

  /**
   * The tables: end-to-end latency, delivery, delivery per partition.
   *
   * @param h the page
   * @param topics the run's topics
   */
  static void tables(StringBuilder h, List<TopicResults> topics) {
    if (topics.isEmpty()) {
      return;
    }
    // Headings of the page's one level (h2): the page's style does not depend on an h3 rule.
    h.append("<div id=\"topics\">\n");
    List<LatencySummary> e2e =
        topics.stream().map(TopicResults::e2e).filter(s -> s != null).toList();
    if (!e2e.isEmpty()) {
      h.append(
              "<h2>End-to-end latency</h2>\n<p class=\"note\">Send to receipt, on the injector's monotonic")
          .append(" clock; checkable by the metric's name, e.g. <code>")
          .append(escape("p99 < 50ms for \"" + e2e.get(0).name() + "\""))
          .append("</code>.</p>\n")
          .append("<table id=\"e2e\"><tr><th>topic</th><th>count</th><th>mean ms</th>")
          .append("<th>p50 ms</th><th>p90 ms</th><th>p95 ms</th><th>p99 ms</th>")
          .append("<th>p99.9 ms</th><th>max ms</th></tr>\n");
      for (TopicResults t : topics) {
        LatencySummary s = t.e2e();
        if (s == null) {
          continue;
        }
        h.append("<tr><td>").append(escape(t.topic())).append("</td>");
        cells(
            h,
            Long.toString(s.count()),
            Numbers.number(s.meanMs()),
            Numbers.number(s.p50Ms()),
            Numbers.number(s.p90Ms()),
            Numbers.number(s.p95Ms()),
            Numbers.number(s.p99Ms()),
            Numbers.number(s.p999Ms()),
            Numbers.number(s.maxMs()));
        h.append("</tr>\n");
      }
      h.append("</table>\n");
    }
    List<Delivery> deliveries =
        topics.stream().map(TopicResults::delivery).filter(d -> d != null).toList();
    if (!deliveries.isEmpty()) {
      deliveries(h, deliveries);
    }
    h.append("</div>\n");
  }

  private static void deliveries(StringBuilder h, List<Delivery> deliveries) {
    h.append("<h2>Delivery</h2>\n<table id=\"delivery\"><tr><th>topic</th><th>partitions</th>")
        .append("<th>consumers</th><th>acknowledged</th><th>received</th><th>lost</th>")
        .append("<th>duplicated</th><th>out of order</th><th>received unacknowledged</th>")
        .append("<th>foreign</th><th>drained</th><th>lag trend</th><th>verdict</th></tr>\n");
    for (Delivery d : deliveries) {
      h.append("<tr><td>").append(escape(d.topic())).append("</td>");
      cells(
          h,
          Integer.toString(d.partitions()),
          Integer.toString(d.consumers()),
          Long.toString(d.acknowledged()),
          Long.toString(d.received()),
          d.verified() ? Long.toString(d.lost()) : "-",
          Long.toString(d.duplicated()),
          Long.toString(d.outOfOrder()),
          Long.toString(d.receivedUnacknowledged()),
          Long.toString(d.foreign()),
          d.drained() ? "yes" : "no",
          d.lagTrend() == null ? "-" : d.lagTrend());
      if (!d.verified()) {
        h.append("<td class=\"fail\">").append(escape(d.notVerifiedLine())).append("</td></tr>\n");
        continue;
      }
      h.append(d.exact() ? "<td class=\"pass\">exact" : "<td class=\"fail\">NOT exact")
          .append("</td></tr>\n");
    }
    h.append(
            "</table>\n<p class=\"note\">Lost: acknowledged by the broker, never received by the end of the")
        .append(" drain. Out of order: received after a later message of the same producer and")
        .append(" partition. Received unacknowledged: the send failed (a timeout) but the broker")
        .append(" kept it — not an error. Foreign: without this run's stamp.</p>\n");
    for (Delivery d : deliveries) {
      partitions(h, d);
      producers(h, d);
    }
  }

  /**
   * A topic's delivery per producer, when it has several (its {@code producers:}, or the sending
   * threads of the run's one producer): that each writer's messages arrived, and how many it wrote.
   */
  private static void producers(StringBuilder h, Delivery d) {
    int n = d.perProducer().size();
    if (n <= 1) {
      return;
    }
    if (n > MAX_PRODUCERS_SHOWN) {
      h.append("<p>")
          .append(escape(d.topic()))
          .append(": ")
          .append(n)
          .append(" producers; their counts are in <code>summary.json</code>.</p>\n");
      return;
    }
    h.append("<p><b>Delivery per producer: ")
        .append(escape(d.topic()))
        .append("</b></p>\n<table class=\"producers\"><tr><th>producer</th><th>acknowledged</th>")
        .append("<th>received</th><th>")
        .append(d.verified() ? "lost" : "unread")
        .append("</th><th>duplicated</th><th>out of order</th></tr>\n");
    for (Delivery.ProducerDelivery p : d.perProducer()) {
      h.append("<tr><td>").append(p.producer()).append("</td>");
      cells(
          h,
          Long.toString(p.acknowledged()),
          Long.toString(p.received()),
          Long.toString(p.lost()),
          Long.toString(p.duplicated()),
          Long.toString(p.outOfOrder()));
      h.append("</tr>\n");
    }
    h.append("</table>\n");
  }

  private static void partitions(StringBuilder h, Delivery d) {
    int n = d.perPartition().size();
    if (n <= 1) {
      return; // the topic's row says it all
    }
    if (n > MAX_PARTITIONS_SHOWN) {
      h.append("<p>")
          .append(escape(d.topic()))
          .append(": ")
          .append(n)
          .append(" partitions; their counts are in <code>summary.json</code>.</p>\n");
      return;
    }
    h.append("<p><b>Delivery per partition: ")
        .append(escape(d.topic()))
        .append("</b></p>\n<table class=\"partitions\"><tr><th>partition</th><th>acknowledged</th>")
        .append("<th>received</th><th>")
        .append(d.verified() ? "lost" : "unread")
        .append("</th><th>duplicated</th><th>out of order</th></tr>\n");
    for (Delivery.PartitionDelivery p : d.perPartition()) {
      h.append("<tr><td>").append(p.partition()).append("</td>");
      cells(
          h,
          Long.toString(p.acknowledged()),
          Long.toString(p.received()),
          Long.toString(p.lost()),
          Long.toString(p.duplicated()),
          Long.toString(p.outOfOrder()));
      h.append("</tr>\n");
    }
    h.append("</table>\n");
  }

  /**
   * One chart per topic: its end-to-end latency per second at p50, p90, p99 and max, like the
   * requests' latency chart.
   *
   * @param run the run
   * @param chart draws a chart the way the page draws its latency charts
   */
  static void charts(RunData run, Chart chart) {
    int drawn = 0;
    for (String metric : run.metrics().keySet()) {
      double[][] rows = run.metricPerSecond(metric);
      if (!metric.startsWith(TopicResults.E2E_PREFIX) || rows == null || drawn == MAX_CHARTS) {
        continue;
      }
      List<SvgChart.Series> series = new ArrayList<>();
      for (int p = 0; p < rows.length; p++) {
        series.add(new SvgChart.Series(label(RunData.SECOND_PERCENTILES[p]), rows[p]));
      }
      chart.draw(
          "End-to-end latency: " + metric.substring(TopicResults.E2E_PREFIX.length()),
          "ms",
          series);
      drawn++;
    }
  }

  /** {@code p50}, {@code p99.9}, {@code max}: a percentile's legend. */
  static String label(double percentile) {
    return percentile >= 100
        ? "max"
        : "p"
            + (percentile == Math.rint(percentile) ? Long.toString((long) percentile) : percentile);
  }

  private static void cells(StringBuilder h, String... values) {
    for (String v : values) {
      h.append("<td>").append(escape(v)).append("</td>");
    }
  }
}
