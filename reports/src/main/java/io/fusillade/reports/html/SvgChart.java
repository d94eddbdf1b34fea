package io.fusillade.reports.html;

import io.fusillade.reports.format.Numbers;
import java.util.List;
import java.util.Locale;

/**
 * A line chart as inline SVG, drawn in Java: no script and no library, so a report opens offline
 * and in any browser. Missing values ({@code NaN}) break a line rather than drawing it through
 * zero.
 */
public final class SvgChart {
  private static final String[] COLORS = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf"
  };
  private static final int WIDTH = 580;
  private static final int HEIGHT = 260;
  private static final int LEFT = 56;
  private static final int RIGHT = 12;
  private static final int TOP = 28;
  private static final int BOTTOM = 34;

  private SvgChart() {}

  /**
   * One line.
   *
   * @param name its legend
   * @param values one per x position; {@code NaN} where missing
   */
  public record Series(String name, double[] values) {}

  /**
   * Draws lines over a common x axis.
   *
   * @param title the chart's title
   * @param xLabel the x axis' label
   * @param yLabel the y axis' label (the unit)
   * @param x the x positions, increasing
   * @param series the lines, at most 10 drawn
   * @param markers x positions to mark with a vertical dashed line (change points)
   * @return the {@code <svg>} element
   */
  public static String lines(
      String title,
      String xLabel,
      String yLabel,
      double[] x,
      List<Series> series,
      List<Double> markers) {
    double xMin = Double.POSITIVE_INFINITY;
    double xMax = Double.NEGATIVE_INFINITY;
    for (double v : x) {
      xMin = Math.min(xMin, v);
      xMax = Math.max(xMax, v);
    }
    double yMax = 0;
    double yMin = 0;
    boolean any = false;
    for (Series s : series) {
      for (double v : s.values()) {
        if (Double.isFinite(v)) {
          yMax = Math.max(yMax, v);
          yMin = Math.min(yMin, v);
          any = true;
        }
      }
    }
    if (x.length == 0 || xMax <= xMin) {
      xMax = xMin + 1;
      if (!Double.isFinite(xMin)) {
        xMin = 0;
        xMax = 1;
      }
    }
    double step = niceStep((yMax - yMin) / 4);
    if (!(step > 0)) {
      step = 1;
    }
    double top = Math.max(step, Math.ceil(yMax / step) * step);
    double bottom = Math.floor(yMin / step) * step;
    int plotW = WIDTH - LEFT - RIGHT;
    int plotH = HEIGHT - TOP - BOTTOM;
    StringBuilder svg = new StringBuilder(4096);
    svg.append(
            String.format(
                Locale.ROOT,
                "<svg class=\"chart\" width=\"%d\" height=\"%d\""
                    + " viewBox=\"0 0 %d %d\" role=\"img\"><title>%s</title>",
                WIDTH,
                HEIGHT + legendHeight(series),
                WIDTH,
                HEIGHT + legendHeight(series),
                Html.escape(title)))
        .append(text(LEFT, 16, "start", 13, "600", title));
    // y grid and labels
    for (double y = bottom; y <= top + step / 2; y += step) {
      double py = TOP + plotH - (y - bottom) / (top - bottom) * plotH;
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e5e7eb\"/>",
              LEFT,
              py,
              WIDTH - RIGHT,
              py));
      svg.append(text(LEFT - 4, py + 4, "end", 10, "400", Numbers.number(y)));
    }
    // x labels
    double xStep = niceStep((xMax - xMin) / 6);
    for (double v = Math.ceil(xMin / xStep) * xStep; v <= xMax + 1e-9; v += xStep) {
      double px = LEFT + (v - xMin) / (xMax - xMin) * plotW;
      svg.append(text(px, TOP + plotH + 14, "middle", 10, "400", Numbers.number(v)));
    }
    svg.append(text(LEFT + plotW / 2.0, TOP + plotH + 28, "middle", 10, "400", xLabel));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"12\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\" fill=\"#555\""
                + " transform=\"rotate(-90 12 %d)\">%s</text>",
            TOP + plotH / 2,
            TOP + plotH / 2,
            Html.escape(yLabel)));
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>",
            LEFT,
            TOP,
            plotW,
            plotH));
    for (double m : markers) {
      double px = LEFT + (m - xMin) / (xMax - xMin) * plotW;
      svg.append(
          String.format(
              Locale.ROOT,
              "<line class=\"marker\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#cf222e\""
                  + " stroke-dasharray=\"4 3\"/>",
              px,
              TOP,
              px,
              TOP + plotH));
    }
    if (!any) {
      svg.append(text(LEFT + plotW / 2.0, TOP + plotH / 2.0, "middle", 12, "400", "no data"));
    }
    int drawn = Math.min(series.size(), COLORS.length);
    for (int s = 0; s < drawn; s++) {
      double[] values = series.get(s).values();
      StringBuilder points = new StringBuilder();
      int n = Math.min(values.length, x.length);
      for (int i = 0; i <= n; i++) {
        boolean present = i < n && Double.isFinite(values[i]);
        if (present) {
          double px = LEFT + (x[i] - xMin) / (xMax - xMin) * plotW;
          double py = TOP + plotH - (values[i] - bottom) / (top - bottom) * plotH;
          points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
        } else if (points.length() > 0) {
          polyline(svg, points, COLORS[s]);
          points.setLength(0);
        }
      }
    }
    // legend
    for (int s = 0; s < drawn; s++) {
      int row = s / 3;
      int col = s % 3;
      double lx = LEFT + col * (plotW / 3.0);
      double ly = HEIGHT + row * 16 - 4;
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>",
              lx,
              ly - 9,
              COLORS[s]));
      String name = series.get(s).name();
      if (name.length() > 34) {
        name = name.substring(0, 33) + "…";
      }
      svg.append(text(lx + 14, ly, "start", 11, "400", name));
    }
    return svg.append("</svg>").toString();
  }

  private static void polyline(StringBuilder svg, StringBuilder points, String color) {
    String p = points.toString().trim();
    if (p.indexOf(' ') < 0) {
      // a single point: a dot, or it would not show
      String[] xy = p.split(",");
      svg.append("<circle cx=\"")
          .append(xy[0])
          .append("\" cy=\"")
          .append(xy[1])
          .append("\" r=\"2\" fill=\"")
          .append(color)
          .append("\"/>");
      return;
    }
    svg.append("<polyline fill=\"none\" stroke-width=\"1.5\" stroke=\"")
        .append(color)
        .append("\" points=\"")
        .append(p)
        .append("\"/>");
  }

  private static int legendHeight(List<Series> series) {
    int drawn = Math.min(series.size(), COLORS.length);
    return ((drawn + 2) / 3) * 16 + 4;
  }

  private static String text(
      double x, double y, String anchor, int size, String weight, String content) {
    return String.format(
        Locale.ROOT,
        "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" font-weight=\"%s\" text-anchor=\"%s\""
            + " fill=\"#333\">%s</text>",
        x,
        y,
        size,
        weight,
        anchor,
        Html.escape(content));
  }

  /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
  static double niceStep(double raw) {
    if (!(raw > 0) || !Double.isFinite(raw)) {
      return 1;
    }
    double power = Math.pow(10, Math.floor(Math.log10(raw)));
    double f = raw / power;
    double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
    return nice * power;
  }
}
