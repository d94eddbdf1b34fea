package io.fusillade.reports.html;

import static io.fusillade.reports.html.Html.escape;

import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.Trend;
import io.fusillade.reports.stats.changepoint.ChangePoint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTML page of {@code fusillade trend}: per metric a chart over the runs, change points marked.
 */
public final class TrendPage {
  private TrendPage() {}

  /** The page's file name. */
  public static final String FILE = "trend.html";

  /**
   * Writes the page ({@value #FILE}) and its stylesheet ({@link Html#STYLESHEET_FILE}) into a
   * directory, created if needed.
   *
   * @param trend the trend
   * @param title the title
   * @param directory where to write them
   * @return the page's path
   * @throws IOException when they cannot be written
   */
  public static Path write(Trend trend, String title, Path directory) throws IOException {
    Files.createDirectories(directory);
    Path page = directory.resolve(FILE);
    Files.writeString(page, render(trend, title), StandardCharsets.UTF_8);
    Html.writeStylesheet(directory);
    return page;
  }

  /**
   * Renders the page (it links {@link Html#STYLESHEET_FILE}: {@link #write} writes both).
   *
   * @param trend the trend
   * @param title the title
   * @return the HTML
   */
  public static String render(Trend trend, String title) {
    StringBuilder h = new StringBuilder(Html.head(title));
    h.append("<h1>").append(escape(title)).append("</h1>\n");
    h.append("<p>")
        .append(trend.runIds().size())
        .append(
            " runs, oldest first. Dashed red lines: change points (E-divisive, permutation test).</p>\n");
    for (String w : trend.warnings()) {
      h.append("<div class=\"banner flag\">WARNING: ").append(escape(w)).append("</div>\n");
    }
    h.append("<h2>Change points</h2>\n<table><tr><th>metric</th><th>run</th><th>before</th>")
        .append("<th>after</th><th>change</th><th>p</th></tr>\n");
    for (Trend.Series s : trend.series()) {
      for (ChangePoint c : s.changes().points()) {
        h.append("<tr><td>")
            .append(escape(s.metric().metric().name()))
            .append("</td><td>")
            .append(c.index() + 1)
            .append(": ")
            .append(escape(trend.runIds().get(c.index())))
            .append("</td><td>")
            .append(escape(Numbers.number(c.meanBefore())))
            .append("</td><td>")
            .append(escape(Numbers.number(c.meanAfter())))
            .append("</td><td>")
            .append(escape(Numbers.signedPercent(c.relativeChange())))
            .append("</td><td>")
            .append(escape(Numbers.pValue(c.pValue())))
            .append("</td></tr>\n");
      }
    }
    h.append("</table>\n<div class=\"charts\">\n");
    int n = trend.runIds().size();
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = i + 1;
    }
    for (Trend.Series s : trend.series()) {
      List<Double> markers = new ArrayList<>();
      s.changes().points().forEach(c -> markers.add(c.index() + 0.5));
      h.append(
              SvgChart.lines(
                  s.metric().metric().name(),
                  "run",
                  s.metric().unit(),
                  x,
                  List.of(new SvgChart.Series(s.metric().metric().name(), s.values())),
                  markers))
          .append('\n');
    }
    h.append("</div></body></html>\n");
    return h.toString();
  }
}
