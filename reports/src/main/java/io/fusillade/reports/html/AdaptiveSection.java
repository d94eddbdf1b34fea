package io.fusillade.reports.html;

import static io.fusillade.reports.html.Html.escape;

import io.fusillade.limit.StepResult;
import io.fusillade.reports.runs.AdaptiveResults;
import io.fusillade.reports.runs.RunData;
import java.util.ArrayList;
import java.util.List;

/**
 * An adaptive run in the HTML report: the rate it settled at, one chart of the rate sent each
 * second, what the system served, the settled rate of each minute and the objective's metric (the
 * window's p99, ms) on one log axis over time, and the table of the settled rate per minute.
 * Nothing for a run that was not adaptive.
 */
final class AdaptiveSection {
  private AdaptiveSection() {}

  /**
   * Appends the section.
   *
   * @param h the page
   * @param run the run
   */
  static void render(StringBuilder h, RunData run) {
    AdaptiveResults result = AdaptiveResults.of(run).orElse(null);
    if (result == null) {
      return;
    }
    h.append("<h2 id=\"adaptive\">Adaptive rate</h2>\n<p><b>")
        .append(escape(result.describe()))
        .append("</b></p>\n");
    double[] x = array(result.seconds());
    if (x.length >= 2) {
      double[] settled = new double[x.length];
      for (int i = 0; i < x.length; i++) {
        int minute = (int) Math.min(result.perMinute().size() - 1, Math.max(0, (x[i] - 1) / 60));
        settled[i] = result.perMinute().isEmpty() ? Double.NaN : result.perMinute().get(minute);
      }
      List<SvgChart.Series> series = new ArrayList<>();
      series.add(new SvgChart.Series("rate sent (/s)", array(result.rate())));
      series.add(new SvgChart.Series("served (/s)", array(result.served())));
      series.add(new SvgChart.Series("settled rate of the minute (/s)", settled));
      series.add(new SvgChart.Series("p99 of the window (ms)", positive(result.p99Ms())));
      // One log axis: a rate of thousands a second and a p99 of milliseconds both read, and the
      // p99 climbing where the rate passed the capacity shows why the rate fell.
      h.append("<div class=\"charts\">\n")
          .append(
              SvgChart.titled("Adaptive rate and p99 over time")
                  .x("seconds", x)
                  .y("/s and ms")
                  .series(series)
                  .logY(true)
                  .render())
          .append("</div>\n");
    }
    h.append("<table><tr><th>minute</th><th>settled rate/s</th></tr>\n");
    for (int i = 0; i < result.perMinute().size(); i++) {
      h.append("<tr><td>")
          .append(i + 1)
          .append("</td><td>")
          .append(escape(StepResult.rate(result.perMinute().get(i))))
          .append("</td></tr>\n");
    }
    h.append("</table>\n")
        .append("<p class=\"note\">Every second the last window is judged against the")
        .append(" objectives; the rate grows by a bounded step while they hold and falls below")
        .append(" what the system served when one fails (AIMD). The settled rate of a minute is")
        .append(" the median of its seconds' rates.</p>\n");
  }

  private static double[] array(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** The values, a zero (no OK request in the window) left out of the log axis. */
  private static double[] positive(List<Double> values) {
    return values.stream().mapToDouble(v -> v > 0 ? v : Double.NaN).toArray();
  }
}
