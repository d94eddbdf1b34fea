package io.fusillade.reports.html;

import static io.fusillade.reports.html.Html.escape;

import io.fusillade.limit.LimitResult;
import io.fusillade.limit.StepResult;
import io.fusillade.reports.runs.LimitResults;
import io.fusillade.reports.runs.RunData;
import java.util.Comparator;
import java.util.List;

/**
 * A limit search in the HTML report: its verdict, a chart of what the system achieved and its p99
 * at each rate tried (the knee is where achieved leaves the target and p99 climbs), and the table
 * of every step with why it passed or failed. The time charts shade the same steps. Nothing for a
 * run without a search.
 */
final class LimitSection {
  private LimitSection() {}

  /**
   * Appends the section.
   *
   * @param h the page
   * @param run the run
   */
  static void render(StringBuilder h, RunData run) {
    LimitResult result = LimitResults.of(run).orElse(null);
    if (result == null) {
      return;
    }
    h.append("<h2 id=\"limit\">Limit search</h2>\n<p class=\"")
        .append(result.verdict() == LimitResult.Verdict.FOUND ? "pass" : "fail")
        .append("\"><b>")
        .append(escape(result.describe()))
        .append("</b></p>\n");
    List<StepResult> byRate =
        result.steps().stream().sorted(Comparator.comparingDouble(StepResult::target)).toList();
    if (byRate.size() >= 2) {
      double[] x = byRate.stream().mapToDouble(StepResult::target).toArray();
      h.append("<div class=\"charts\">\n");
      h.append(
          SvgChart.titled("Achieved rate at each rate tried")
              .x("rate tried (/s)", x)
              .y("completed/s")
              .series(
                  List.of(
                      new SvgChart.Series("achieved", values(byRate, StepResult::achieved)),
                      new SvgChart.Series("target", x)))
              .render());
      h.append(
          SvgChart.titled("p99 latency at each rate tried (from the due time)")
              .x("rate tried (/s)", x)
              .y("ms")
              .series(
                  List.of(
                      new SvgChart.Series("p99", values(byRate, StepResult::p99Ms)),
                      new SvgChart.Series("p50", values(byRate, StepResult::p50Ms))))
              .render());
      h.append("</div>\n");
    }
    boolean lag = result.steps().stream().anyMatch(s -> s.lag() != null);
    h.append("<table><tr><th>step</th><th>phase</th><th>time s</th><th>rate/s</th>")
        .append("<th>achieved/s</th><th>p50 ms</th><th>p99 ms</th><th>errors %</th>")
        .append(lag ? "<th>lag</th>" : "")
        .append("<th>verdict</th></tr>\n");
    for (StepResult s : result.steps()) {
      h.append("<tr>");
      cell(h, Integer.toString(s.index()));
      cell(h, s.phase());
      cell(h, StepResult.number(s.fromSeconds()) + "–" + StepResult.number(s.toSeconds()));
      cell(h, StepResult.rate(s.target()));
      cell(h, StepResult.rate(s.achieved()));
      cell(h, StepResult.number(s.p50Ms()));
      cell(h, StepResult.number(s.p99Ms()));
      cell(h, StepResult.number(s.errorPercent()));
      if (lag) {
        cell(h, s.lag() == null ? "-" : s.lag());
      }
      h.append("<td class=\"")
          .append(s.passed() ? "pass" : "fail")
          .append(" text\">")
          .append(escape(s.verdict()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n")
        .append("<p class=\"note\">Each step is judged on its seconds after its warm-up share;")
        .append(" latency counts from when each request was due, so a system that queues what")
        .append(" it cannot serve shows it. A step the injector could not vouch for ends the")
        .append(" search: the injector, not the system, was then the limit.</p>\n");
  }

  private static double[] values(
      List<StepResult> steps, java.util.function.ToDoubleFunction<StepResult> f) {
    return steps.stream().mapToDouble(f).toArray();
  }

  private static void cell(StringBuilder h, String value) {
    h.append("<td>").append(escape(value)).append("</td>");
  }
}
