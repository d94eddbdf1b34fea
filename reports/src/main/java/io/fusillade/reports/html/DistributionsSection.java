package io.fusillade.reports.html;

import static io.fusillade.reports.html.Html.escape;

import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.LatencySummary;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.TopicResults;
import java.util.ArrayList;
import java.util.List;

/**
 * The run's other distributions in its HTML report: every metric of {@code latency.hlog} that is
 * not a request (injector lag, a topic's end-to-end latency, time-to-searchable, the time to build
 * a bulk, a node's latency...), as the table the console prints under the requests (with the
 * request table's columns), and a chart per second of each one that has no chart of its own
 * elsewhere (the injector lag and end-to-end latency have theirs).
 */
final class DistributionsSection {
  /** The most charts of metrics drawn. */
  private static final int MAX_CHARTS = 10;

  /** The metric whose chart the page draws among the injector's own. */
  private static final String INJECTOR_LAG = "injector.lag";

  private DistributionsSection() {}

  /**
   * The table: one row per metric with values, in the record's order.
   *
   * @param h the page
   * @param run the run
   */
  static void table(StringBuilder h, RunData run) {
    List<LatencySummary> rows = LatencySummary.all(run);
    if (rows.isEmpty()) {
      return;
    }
    h.append("<h2 id=\"distributions-title\">Other distributions</h2>\n")
        .append("<p class=\"note\">Every latency-like measure of the run besides its requests, in")
        .append(" milliseconds: how late the injector's own timer ran, a topic's end-to-end")
        .append(" latency, the time until a written document was searchable... Checkable by name,")
        .append(" e.g. <code>")
        .append(escape("p99 < 2s for \"" + example(rows) + "\""))
        .append("</code>.</p>\n")
        .append("<table id=\"distributions\"><tr><th>metric</th><th>count</th><th>mean ms</th>")
        .append("<th>p50 ms</th><th>p90 ms</th><th>p95 ms</th><th>p99 ms</th>")
        .append("<th>p99.9 ms</th><th>max ms</th></tr>\n");
    for (LatencySummary s : rows) {
      h.append("<tr><td>").append(escape(s.name())).append("</td>");
      for (String v :
          new String[] {
            Long.toString(s.count()),
            Numbers.number(s.meanMs()),
            Numbers.number(s.p50Ms()),
            Numbers.number(s.p90Ms()),
            Numbers.number(s.p95Ms()),
            Numbers.number(s.p99Ms()),
            Numbers.number(s.p999Ms()),
            Numbers.number(s.maxMs())
          }) {
        h.append("<td>").append(escape(v)).append("</td>");
      }
      h.append("</tr>\n");
    }
    h.append("</table>\n");
  }

  /** A metric to name in the example check: one of the system's, when there is one. */
  private static String example(List<LatencySummary> rows) {
    return rows.stream()
        .map(LatencySummary::name)
        .filter(name -> !name.equals(INJECTOR_LAG))
        .reduce((first, later) -> later)
        .orElse(rows.get(0).name());
  }

  /**
   * One chart per metric without a chart of its own elsewhere: its p50, p90, p99 and max per
   * second, like the requests' latency chart.
   *
   * @param run the run
   * @param chart draws a chart the way the page draws its latency charts
   */
  static void charts(RunData run, TopicSection.Chart chart) {
    int drawn = 0;
    for (String metric : run.metrics().keySet()) {
      double[][] rows = run.metricPerSecond(metric);
      if (rows == null
          || drawn == MAX_CHARTS
          || metric.equals(INJECTOR_LAG)
          || metric.startsWith(TopicResults.E2E_PREFIX)
          || run.metrics().get(metric).getTotalCount() == 0) {
        continue;
      }
      List<SvgChart.Series> series = new ArrayList<>();
      for (int p = 0; p < rows.length; p++) {
        series.add(new SvgChart.Series(TopicSection.label(RunData.SECOND_PERCENTILES[p]), rows[p]));
      }
      chart.draw(title(metric), "ms", series);
      drawn++;
    }
  }

  /** A metric's chart title: its name, with what the known ones measure. */
  static String title(String metric) {
    return switch (metric) {
      case "time-to-searchable" ->
          "Time-to-searchable (a document written until a search finds it)";
      case "logs bulk build" -> "Bulk build time (the injector's own work per bulk)";
      default -> metric;
    };
  }
}
