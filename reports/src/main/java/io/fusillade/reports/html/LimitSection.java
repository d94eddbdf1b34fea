package io.fusillade.reports.html;

import static io.fusillade.reports.html.Html.escape;

import io.fusillade.limit.LimitResult;
import io.fusillade.limit.StepResult;
import io.fusillade.reports.runs.LimitResults;
import io.fusillade.reports.runs.RunData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A limit search in the HTML report: its verdict, a chart of what the system achieved and one of
 * its p50 and p99 (on a log axis) at each rate tried, a point per step with the confirmation ringed
 * (the knee is where achieved leaves the target and the latency climbs), and the table of every
 * step with why it passed or failed. The time charts shade the same steps. Nothing for a run
 * without a search.
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
      // One point per step at the rate it was sent at, not lines in the order the search tried
      // them (bisection goes back and forth: joined, the steps zig-zag); the confirmation ringed.
      List<StepResult> confirm = byRate.stream().filter(LimitSection::confirms).toList();
      double[] x = byRate.stream().mapToDouble(StepResult::target).toArray();
      double[] cx = confirm.stream().mapToDouble(StepResult::target).toArray();
      double[] rates = byRate.stream().mapToDouble(StepResult::target).distinct().toArray();
      h.append("<div class=\"charts\">\n");
      List<StepResult> passed = byRate.stream().filter(StepResult::passed).toList();
      List<StepResult> failed = byRate.stream().filter(st -> !st.passed()).toList();
      List<SvgChart.Series> achieved = new ArrayList<>();
      achieved.add(
          SvgChart.Series.dots(
              "achieved, step passed", rates(passed), values(passed, StepResult::achieved)));
      achieved.add(
          SvgChart.Series.dots(
              "achieved, step failed", rates(failed), values(failed, StepResult::achieved)));
      achieved.add(new SvgChart.Series("target (achieved = tried)", rates, rates));
      if (cx.length > 0) {
        achieved.add(
            SvgChart.Series.rings("confirmation", cx, values(confirm, StepResult::achieved)));
      }
      h.append(
          SvgChart.titled("Achieved rate at each rate tried")
              .x("rate tried (/s)", x)
              .y("completed/s")
              .series(achieved)
              .render());
      List<SvgChart.Series> latency = new ArrayList<>();
      latency.add(SvgChart.Series.dots("p99", x, values(byRate, StepResult::p99Ms)));
      latency.add(SvgChart.Series.dots("p50", x, values(byRate, StepResult::p50Ms)));
      if (cx.length > 0) {
        latency.add(
            SvgChart.Series.rings("confirmation p99", cx, values(confirm, StepResult::p99Ms)));
      }
      // a log axis: the good steps' fraction of a millisecond and a queueing step's seconds both
      // read
      h.append(
          SvgChart.titled("p99 and p50 latency at each rate tried (from the due time)")
              .x("rate tried (/s)", x)
              .y("ms")
              .series(latency)
              .logY(true)
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

  private static double[] rates(List<StepResult> steps) {
    return values(steps, StepResult::target);
  }

  /** Whether a step is the search's confirmation of the rate it found. */
  static boolean confirms(StepResult step) {
    return "confirm".equals(step.phase());
  }

  private static double[] values(
      List<StepResult> steps, java.util.function.ToDoubleFunction<StepResult> f) {
    return steps.stream().mapToDouble(f).toArray();
  }

  private static void cell(StringBuilder h, String value) {
    h.append("<td>").append(escape(value)).append("</td>");
  }
}
