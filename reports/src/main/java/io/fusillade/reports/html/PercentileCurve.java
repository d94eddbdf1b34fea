package io.fusillade.reports.html;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.AbstractHistogram;

/**
 * The percentile distribution of a latency histogram, as HdrHistogram's own plots draw it: latency
 * (ms) against {@code 1/(1-p)}, so 90%, 99%, 99.9%... are evenly spaced and the tail, where latency
 * problems live, is as wide as the body.
 */
final class PercentileCurve {
  /** Points per "nine" (per factor 10 of {@code 1/(1-p)}). */
  static final int PER_DECADE = 10;

  private PercentileCurve() {}

  /**
   * The curve of a histogram in microseconds.
   *
   * @param name the legend
   * @param micros the latencies, µs
   * @return the series, with its own x positions ({@link SvgChart#percentilePosition})
   */
  static SvgChart.Series of(String name, AbstractHistogram micros) {
    List<double[]> points = points(micros);
    double[] x = new double[points.size()];
    double[] y = new double[points.size()];
    for (int i = 0; i < points.size(); i++) {
      x[i] = points.get(i)[0];
      y[i] = points.get(i)[1];
    }
    return new SvgChart.Series(name, y, x);
  }

  /**
   * The points: {@code {1/(1-p), ms}}, {@value #PER_DECADE} per "nine" evenly spaced on the log
   * axis (so exactly at 0%, 90%, 99%, 99.9%...), up to the finest percentile the count resolves
   * ({@code 1 - 1/count}), where the maximum is drawn; empty for an empty histogram.
   */
  static List<double[]> points(AbstractHistogram micros) {
    List<double[]> points = new ArrayList<>();
    long count = micros.getTotalCount();
    if (count == 0) {
      return points;
    }
    double finest = SvgChart.percentilePosition(100, count);
    double top = Math.log10(finest);
    for (int i = 0; i < top * PER_DECADE - 1e-9; i++) {
      double x = Math.pow(10, i / (double) PER_DECADE);
      double percentile = 100 * (1 - 1 / x);
      points.add(new double[] {x, micros.getValueAtPercentile(percentile) / 1000.0});
    }
    points.add(new double[] {finest, micros.getMaxValue() / 1000.0});
    return points;
  }
}
