package io.fusillade.limit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rate an adaptive run settled at over time: one point a second (the rate sent, what the system
 * served, the p99 and the errors of the window judged), the settled rate of each minute, and of the
 * run's last minute. The settled rate is the median of the rates sent in its seconds: the
 * controller's sawtooth (up 10% a second, down below the served rate) is centred on the capacity,
 * and a median is not moved by the seconds of a transition.
 */
public final class AdaptiveCurve {
  /** The seconds of a minute of the curve. */
  static final int MINUTE = 60;

  private final List<double[]> points = new ArrayList<>(); // second, rate, served, p99, errors %
  private final List<String> actions = new ArrayList<>();

  /** Adds the second ending {@code atSeconds} after the run's start. */
  public void add(
      double atSeconds,
      double rate,
      double served,
      double p99Ms,
      double errorPercent,
      String action) {
    points.add(new double[] {atSeconds, rate, served, p99Ms, errorPercent});
    actions.add(action);
  }

  /** How many seconds it holds. */
  public int size() {
    return points.size();
  }

  /** The rate sent in each second, in order. */
  public double[] rates() {
    return points.stream().mapToDouble(p -> p[1]).toArray();
  }

  /** The median of the rates of seconds {@code from} (inclusive) to {@code to} (exclusive). */
  public double settled(int from, int to) {
    double[] rates = Arrays.copyOfRange(rates(), Math.max(0, from), Math.min(size(), to));
    return median(rates);
  }

  /** The settled rate of each minute of the run (a last minute of under 30 s left out). */
  public List<Double> perMinute() {
    List<Double> out = new ArrayList<>();
    for (int from = 0; from < size(); from += MINUTE) {
      int to = Math.min(size(), from + MINUTE);
      if (to - from >= MINUTE / 2 || from == 0) {
        out.add(round(settled(from, to)));
      }
    }
    return out;
  }

  /** The settled rate of the run's last minute (of all of it, when shorter), or 0 without any. */
  public double settledRate() {
    return settled(size() - MINUTE, size());
  }

  /** The curve as {@code run.json}'s {@code adaptive} parameter holds it. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("settledRate", round(settledRate()));
    m.put("settledPerMinute", perMinute());
    m.put("seconds", column(0));
    m.put("rate", column(1));
    m.put("served", column(2));
    m.put("p99Ms", column(3));
    m.put("errorPercent", column(4));
    m.put("action", List.copyOf(actions));
    return m;
  }

  private List<Double> column(int index) {
    return points.stream().map(p -> round(p[index])).toList();
  }

  static double median(double[] values) {
    if (values.length == 0) {
      return 0;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
