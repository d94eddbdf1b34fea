package io.fusillade.reports.html;

import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.TimeBands;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart as inline SVG, drawn in Java: no script and no library, so a report opens offline,
 * in any browser and under a strict Content-Security-Policy (colours and sizes are SVG presentation
 * attributes, not CSS). Missing values ({@code NaN}) break a line rather than drawing it through
 * zero.
 *
 * <p>Options: a logarithmic y axis ({@link #logY}), an x axis of percentiles ({@link #percentileX}:
 * HdrHistogram's percentile distribution), shaded time bands ({@link #bands}) and vertical markers
 * ({@link #markers}); lines, or points not joined ({@link Style}), and what an empty chart says
 * ({@link #whenEmpty}). The legend sits under the x axis' title, in three, two or one columns, as
 * the longest name allows it whole; a name longer than a row is wrapped, never cut.
 *
 * <p>Why one class of about 750 lines: the fluent settings, the two axes (linear, log, percentile)
 * and the drawing all read the same few fields of one chart, and a chart is drawn in one pass;
 * split, each piece would take the whole chart as an argument. What needs no chart state (nice tick
 * steps, percentile positions and labels) is static, and tested on its own.
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
  private static final int PLOT_W = WIDTH - LEFT - RIGHT;
  private static final int PLOT_H = HEIGHT - TOP - BOTTOM;
  private static final int LEGEND_ROW = 16;

  /** Below this max/min ratio a log axis shows nothing a linear one does not. */
  static final double LOG_RATIO = 10;

  /** How a series is drawn. */
  public enum Style {
    /** A line through its points, broken where a value is missing. */
    LINE,
    /** A dot per point, nothing joining them: measurements that are not a time series. */
    DOTS,
    /** A ring per point, drawn over the dots: the points to pick out (a confirmation step). */
    RINGS
  }

  /**
   * One line, or one set of points.
   *
   * @param name its legend
   * @param values one per x position; {@code NaN} where missing
   * @param x its own x positions, or null for the chart's
   * @param style how it is drawn
   */
  public record Series(String name, double[] values, double[] x, Style style) {
    /**
     * A line over its own x positions.
     *
     * @param name its legend
     * @param values one per x position; {@code NaN} where missing
     * @param x its own x positions, or null for the chart's
     */
    public Series(String name, double[] values, double[] x) {
      this(name, values, x, Style.LINE);
    }

    /**
     * A line over the chart's x positions.
     *
     * @param name its legend
     * @param values one per x position; {@code NaN} where missing
     */
    public Series(String name, double[] values) {
      this(name, values, null, Style.LINE);
    }

    /**
     * Points, not joined: one measurement per x, in any order (several may share an x).
     *
     * @param name its legend
     * @param x their x positions
     * @param values their values
     * @return dots
     */
    public static Series dots(String name, double[] x, double[] values) {
      return new Series(name, values, x, Style.DOTS);
    }

    /**
     * Points to pick out, drawn as rings.
     *
     * @param name its legend
     * @param x their x positions
     * @param values their values
     * @return rings
     */
    public static Series rings(String name, double[] x, double[] values) {
      return new Series(name, values, x, Style.RINGS);
    }
  }

  private final String title;
  private String xLabel = "";
  private String yLabel = "";
  private double[] x = new double[0];
  private List<Series> series = List.of();
  private List<Double> markers = List.of();
  private List<TimeBands.Band> bands = List.of();
  private boolean logY;
  private boolean percentileX;
  private double xFrom = Double.NaN;
  private String empty = "no data";

  private SvgChart(String title) {
    this.title = title;
  }

  /**
   * A chart.
   *
   * @param title its title, drawn at its top left
   * @return the chart, to configure and {@link #render}
   */
  public static SvgChart titled(String title) {
    return new SvgChart(title);
  }

  /**
   * The x axis.
   *
   * @param label its title
   * @param positions the x positions of the lines that have none of their own, increasing
   * @return this
   */
  public SvgChart x(String label, double[] positions) {
    this.xLabel = label;
    this.x = positions.clone();
    return this;
  }

  /**
   * What the plot says when no series has a point: "no data" unless told, such as "0 KO" for a
   * chart of failures in a run where none failed (nothing to draw is then a measurement).
   *
   * @param text the words
   * @return this
   */
  public SvgChart whenEmpty(String text) {
    this.empty = text;
    return this;
  }

  /**
   * Starts the x axis at {@code from} at the latest (a time chart starts at 0, though its first
   * point is the end of the first second).
   *
   * @param from where the x axis starts, or earlier when a point is
   * @return this
   */
  public SvgChart xFrom(double from) {
    this.xFrom = from;
    return this;
  }

  /**
   * The y axis' title.
   *
   * @param label its title (the unit)
   * @return this
   */
  public SvgChart y(String label) {
    this.yLabel = label;
    return this;
  }

  /**
   * The lines.
   *
   * @param lines at most 10 are drawn
   * @return this
   */
  public SvgChart series(List<Series> lines) {
    this.series = List.copyOf(lines);
    return this;
  }

  /**
   * Vertical dashed red lines (change points).
   *
   * @param positions x positions
   * @return this
   */
  public SvgChart markers(List<Double> positions) {
    this.markers = List.copyOf(positions);
    return this;
  }

  /**
   * Time ranges shaded behind the lines, their labels at the top when they fit.
   *
   * @param ranges in x units
   * @return this
   */
  public SvgChart bands(List<TimeBands.Band> ranges) {
    this.bands = List.copyOf(ranges);
    return this;
  }

  /**
   * A logarithmic y axis (gridlines at 1, 2, 5 times powers of ten); values of 0 or less are not
   * drawn.
   *
   * @param log whether to
   * @return this
   */
  public SvgChart logY(boolean log) {
    this.logY = log;
    return this;
  }

  /**
   * An x axis of percentiles: x positions are {@code 1/(1-p)} ({@link #percentilePosition}) on a
   * logarithmic axis labelled 0%, 90%, 99%, 99.9%...: HdrHistogram's percentile distribution, where
   * the tail gets as much room as the body.
   *
   * @return this
   */
  public SvgChart percentileX() {
    this.percentileX = true;
    return this;
  }

  /**
   * The x position of a percentile on a {@link #percentileX} chart.
   *
   * @param percentile 0 to 100
   * @param count how many values the histogram holds: 100% is drawn at {@code 1 - 1/count}, the
   *     finest percentile that many values resolve
   * @return {@code 1/(1-p)}
   */
  public static double percentilePosition(double percentile, long count) {
    double finest = 1 - 1.0 / Math.max(2, count);
    double p = Math.min(percentile / 100, finest);
    return 1 / (1 - p);
  }

  /**
   * Whether the finite values of these lines span more than a factor {@value #LOG_RATIO} (largest
   * over smallest above zero): then a log axis keeps the small ones readable.
   *
   * @param lines the lines
   * @return true to draw them on a log axis
   */
  public static boolean wideRange(List<Series> lines) {
    double min = Double.POSITIVE_INFINITY;
    double max = 0;
    for (Series s : lines) {
      for (double v : s.values()) {
        if (Double.isFinite(v) && v > 0) {
          min = Math.min(min, v);
          max = Math.max(max, v);
        }
      }
    }
    return max > 0 && max / min >= LOG_RATIO;
  }

  /**
   * Whether this chart's lines span a {@link #wideRange}.
   *
   * @return true when a log y axis would serve them better
   */
  public boolean isWideRange() {
    return wideRange(series.subList(0, Math.min(series.size(), COLORS.length)));
  }

  /**
   * Draws lines over a common x axis: the chart of earlier versions, without options.
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
    return titled(title).x(xLabel, x).y(yLabel).series(series).markers(markers).render();
  }

  /** An axis: maps values to [0, 1] and lists its gridlines with their labels. */
  private record Axis(double min, double max, boolean log, List<double[]> ticks) {
    double fraction(double v) {
      if (log) {
        return (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min));
      }
      return (v - min) / (max - min);
    }

    boolean drawable(double v) {
      return Double.isFinite(v) && (!log || v > 0);
    }
  }

  /**
   * Renders the chart.
   *
   * @return the {@code <svg>} element
   */
  public String render() {
    int drawn = Math.min(series.size(), COLORS.length);
    Axis xAxis = xAxis();
    Axis yAxis = yAxis(drawn);
    Legend legend = legend(drawn);
    int height = HEIGHT + (drawn == 0 ? 0 : legend.height() + 8);
    StringBuilder svg = new StringBuilder(4096);
    svg.append(
            String.format(
                Locale.ROOT,
                "<svg class=\"chart\" width=\"%d\""
                    + " height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><title>%s</title>",
                WIDTH,
                height,
                WIDTH,
                height,
                Html.escape(title + (yAxis.log() ? " (log scale)" : ""))))
        .append(text(LEFT, 16, "start", 13, "600", title));
    if (yAxis.log()) {
      svg.append(text(WIDTH - RIGHT, 16, "end", 10, "400", "log scale"));
    }
    bands(svg, xAxis);
    // y grid and labels
    for (double[] tick : yAxis.ticks()) {
      double py = TOP + PLOT_H - yAxis.fraction(tick[0]) * PLOT_H;
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>",
              LEFT,
              py,
              WIDTH - RIGHT,
              py,
              tick[1] > 0 ? "#e5e7eb" : "#eceef1"));
      if (tick[1] > 0) {
        svg.append(text(LEFT - 4, py + 4, "end", 10, "400", tickLabel(tick[0], yAxis.log())));
      }
    }
    // x labels
    for (double[] tick : xAxis.ticks()) {
      double px = LEFT + xAxis.fraction(tick[0]) * PLOT_W;
      String label = percentileX ? percentileLabel(tick[0]) : tickLabel(tick[0], /* log= */ false);
      if (percentileX) {
        // vertical gridlines at 90%, 99%...: where the distribution is read
        svg.append(
            String.format(
                Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e5e7eb\"/>",
                px,
                TOP,
                px,
                TOP + PLOT_H));
      }
      // the last label ends at the plot's right edge rather than overflowing the chart
      boolean edge = px > WIDTH - RIGHT - 20;
      svg.append(text(px, TOP + PLOT_H + 14, edge ? "end" : "middle", 10, "400", label));
    }
    svg.append(text(LEFT + PLOT_W / 2.0, TOP + PLOT_H + 28, "middle", 10, "400", xLabel));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"12\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\" fill=\"#555\""
                + " transform=\"rotate(-90 12 %d)\">%s</text>",
            TOP + PLOT_H / 2,
            TOP + PLOT_H / 2,
            Html.escape(yLabel)));
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>",
            LEFT,
            TOP,
            PLOT_W,
            PLOT_H));
    for (double m : markers) {
      double px = LEFT + xAxis.fraction(m) * PLOT_W;
      svg.append(
          String.format(
              Locale.ROOT,
              "<line class=\"marker\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#cf222e\""
                  + " stroke-dasharray=\"4 3\"/>",
              px,
              TOP,
              px,
              TOP + PLOT_H));
    }
    boolean any = false;
    for (int s = 0; s < drawn; s++) {
      any |= lines(svg, series.get(s), xAxis, yAxis, COLORS[s]);
    }
    if (!any) {
      svg.append(text(LEFT + PLOT_W / 2.0, TOP + PLOT_H / 2.0, "middle", 12, "400", empty));
    }
    legend(svg, legend);
    return svg.append("</svg>").toString();
  }

  private double[] xOf(Series s) {
    return s.x() != null ? s.x() : x;
  }

  private Axis xAxis() {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    List<double[]> all = new ArrayList<>();
    all.add(x);
    series.stream().limit(COLORS.length).forEach(s -> all.add(xOf(s)));
    for (double[] positions : all) {
      for (double v : positions) {
        if (Double.isFinite(v) && (!percentileX || v >= 1)) {
          min = Math.min(min, v);
          max = Math.max(max, v);
        }
      }
    }
    if (percentileX) {
      // from 0% (x = 1) to the next decade after the finest percentile drawn
      double top = Math.pow(10, Math.max(1, Math.ceil(Math.log10(Math.max(max, 10)) - 1e-9)));
      List<double[]> ticks = new ArrayList<>();
      // past six nines the labels (99.99999%) would overlap: every other one
      double every = Math.log10(top) > 6 ? 100 : 10;
      for (double v = 1; v <= top * 1.0001; v *= every) {
        ticks.add(new double[] {v, 1});
      }
      return new Axis(1, top, true, ticks);
    }
    if (Double.isFinite(xFrom)) {
      min = Double.isFinite(min) ? Math.min(min, xFrom) : xFrom;
      max = Double.isFinite(max) ? max : xFrom;
    }
    if (!Double.isFinite(min) || max <= min) {
      min = Double.isFinite(min) ? min : 0;
      max = min + 1;
    }
    double step = niceStep((max - min) / 6);
    List<double[]> ticks = new ArrayList<>();
    for (double v = Math.ceil(min / step) * step; v <= max + 1e-9; v += step) {
      ticks.add(new double[] {v, 1});
    }
    return new Axis(min, max, false, ticks);
  }

  private Axis yAxis(int drawn) {
    double yMax = 0;
    double yMin = 0;
    double minPositive = Double.POSITIVE_INFINITY;
    for (int s = 0; s < drawn; s++) {
      for (double v : series.get(s).values()) {
        if (Double.isFinite(v)) {
          yMax = Math.max(yMax, v);
          yMin = Math.min(yMin, v);
          if (v > 0) {
            minPositive = Math.min(minPositive, v);
          }
        }
      }
    }
    if (logY && yMax > 0) {
      double low = Math.pow(10, Math.floor(Math.log10(minPositive)));
      double high = Math.pow(10, Math.ceil(Math.log10(yMax)));
      if (high <= low) {
        high = low * 10;
      }
      int decades = (int) Math.round(Math.log10(high / low));
      List<double[]> ticks = new ArrayList<>();
      for (double d = low; d <= high * 1.0001; d *= 10) {
        ticks.add(new double[] {d, 1});
        if (d < high / 1.0001) {
          // 2 and 5 labelled on a short axis, faint lines only on a tall one
          ticks.add(new double[] {2 * d, decades <= 3 ? 1 : 0});
          ticks.add(new double[] {5 * d, decades <= 3 ? 1 : 0});
        }
      }
      return new Axis(low, high, true, ticks);
    }
    double step = niceStep((yMax - yMin) / 4);
    if (!(step > 0)) {
      step = 1;
    }
    double top = Math.max(step, Math.ceil(yMax / step) * step);
    if (yMax > 0 && top - yMax < step * 0.05) {
      top += step; // a line along the frame would hide in it
    }
    double bottom = Math.floor(yMin / step) * step;
    List<double[]> ticks = new ArrayList<>();
    for (double y = bottom; y <= top + step / 2; y += step) {
      ticks.add(new double[] {y, 1});
    }
    return new Axis(bottom, top, false, ticks);
  }

  private void bands(StringBuilder svg, Axis xAxis) {
    int index = 0;
    for (TimeBands.Band band : bands) {
      double from = Math.max(xAxis.min(), band.fromSeconds());
      double to = Math.min(xAxis.max(), band.toSeconds());
      if (!(to > from)) {
        index++;
        continue;
      }
      double x1 = LEFT + xAxis.fraction(from) * PLOT_W;
      double x2 = LEFT + xAxis.fraction(to) * PLOT_W;
      String fill =
          switch (band.kind()) {
            case FAULT -> "#fde2e1";
            case INJECTED -> "#fdebd3";
            case STEP -> index % 2 == 0 ? "#eef2f8" : "#f8fafc";
          };
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect class=\"band\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
                  + "<title>%s</title></rect>",
              x1,
              TOP,
              x2 - x1,
              PLOT_H,
              fill,
              Html.escape(band.label())));
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c8d1dc\"/>",
              x1,
              TOP,
              x1,
              TOP + PLOT_H));
      if ((x2 - x1) > band.label().length() * 5.5 + 4) {
        svg.append(text((x1 + x2) / 2, TOP + 10, "middle", 9, "400", band.label()));
      }
      index++;
    }
  }

  /** Draws one series; false when it has no point. */
  private boolean lines(StringBuilder svg, Series s, Axis xAxis, Axis yAxis, String color) {
    double[] values = s.values();
    double[] xs = xOf(s);
    if (s.style() != Style.LINE) {
      boolean any = false;
      for (int i = 0; i < Math.min(values.length, xs.length); i++) {
        if (yAxis.drawable(values[i]) && xAxis.drawable(xs[i])) {
          double px = LEFT + xAxis.fraction(xs[i]) * PLOT_W;
          double py = TOP + PLOT_H - yAxis.fraction(values[i]) * PLOT_H;
          svg.append(point(px, py, s.style(), color));
          any = true;
        }
      }
      return any;
    }
    StringBuilder points = new StringBuilder();
    boolean any = false;
    int n = Math.min(values.length, xs.length);
    for (int i = 0; i <= n; i++) {
      boolean present = i < n && yAxis.drawable(values[i]) && xAxis.drawable(xs[i]);
      if (present) {
        double px = LEFT + xAxis.fraction(xs[i]) * PLOT_W;
        double py = TOP + PLOT_H - yAxis.fraction(values[i]) * PLOT_H;
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
        any = true;
      } else if (points.length() > 0) {
        polyline(svg, points, color);
        points.setLength(0);
      }
    }
    return any;
  }

  /** About 6.2 px per character of an 11 px legend; the swatch and a gap take 20 px. */
  private static int fits(int columns) {
    return (int) ((PLOT_W / (double) columns - 20) / 6.2);
  }

  /**
   * The legend's layout: as many columns (3, 2 or 1) as the longest name allows whole, each name on
   * its lines (a name longer than a whole row is wrapped at its spaces, never cut).
   *
   * @param columns how many
   * @param lines per series, its name's lines
   * @param rowTops per row of entries, its top from the legend's first baseline
   * @param height the legend's height
   */
  private record Legend(int columns, List<List<String>> lines, List<Integer> rowTops, int height) {}

  private Legend legend(int drawn) {
    int longest = 0;
    for (int s = 0; s < drawn; s++) {
      longest = Math.max(longest, series.get(s).name().length());
    }
    int columns = longest <= fits(3) ? 3 : longest <= fits(2) ? 2 : 1;
    List<List<String>> lines = new ArrayList<>();
    for (int s = 0; s < drawn; s++) {
      lines.add(wrap(series.get(s).name(), fits(columns)));
    }
    List<Integer> rowTops = new ArrayList<>();
    int top = 0;
    for (int first = 0; first < drawn; first += columns) {
      rowTops.add(top);
      int tallest = 1;
      for (int s = first; s < Math.min(drawn, first + columns); s++) {
        tallest = Math.max(tallest, lines.get(s).size());
      }
      top += tallest * LEGEND_ROW;
    }
    return new Legend(columns, lines, rowTops, top);
  }

  /** A name in lines of at most {@code width} characters, broken at spaces where it can be. */
  static List<String> wrap(String name, int width) {
    List<String> lines = new ArrayList<>();
    String rest = name;
    while (rest.length() > width) {
      int cut = rest.lastIndexOf(' ', width);
      if (cut <= 0) {
        cut = width; // one long word: split it
      }
      lines.add(rest.substring(0, cut).stripTrailing());
      rest = rest.substring(cut).stripLeading();
    }
    lines.add(rest);
    return lines;
  }

  private void legend(StringBuilder svg, Legend legend) {
    int columns = legend.columns();
    for (int s = 0; s < legend.lines().size(); s++) {
      int col = s % columns;
      double lx = LEFT + col * (PLOT_W / (double) columns);
      double ly = HEIGHT + 10 + legend.rowTops().get(s / columns);
      Style style = series.get(s).style();
      if (style == Style.LINE) {
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>",
                lx,
                ly - 9,
                COLORS[s]));
      } else {
        svg.append(point(lx + 5, ly - 4, style, COLORS[s]));
      }
      List<String> lines = legend.lines().get(s);
      for (int l = 0; l < lines.size(); l++) {
        svg.append(text(lx + 14, ly + l * LEGEND_ROW, "start", 11, "400", lines.get(l)));
      }
    }
  }

  private static String tickLabel(double v, boolean log) {
    if (log && v >= 1 && v == Math.rint(v)) {
      return String.format(Locale.ROOT, "%d", (long) v);
    }
    if (log && v < 1) {
      return String.format(Locale.ROOT, "%s", trimZeros(String.format(Locale.ROOT, "%.6f", v)));
    }
    return trimZeros(Numbers.number(v));
  }

  private static String trimZeros(String s) {
    return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
  }

  /** 1 → 0%, 10 → 90%, 100 → 99%, 1000 → 99.9%... */
  static String percentileLabel(double position) {
    if (position <= 1.0001) {
      return "0%";
    }
    int nines = (int) Math.round(Math.log10(position));
    if (nines == 1) {
      return "90%";
    }
    return "99" + (nines > 2 ? "." + "9".repeat(nines - 2) : "") + "%";
  }

  /** A dot, or a ring around where a dot is. */
  private static String point(double x, double y, Style style, String color) {
    return style == Style.RINGS
        ? String.format(
            Locale.ROOT,
            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" stroke=\"%s\""
                + " stroke-width=\"2\"/>",
            x,
            y,
            color)
        : String.format(
            Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>", x, y, color);
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
