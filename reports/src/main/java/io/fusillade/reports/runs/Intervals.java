package io.fusillade.reports.runs;

import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.stats.ConfidenceInterval;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code fusillade intervals}: over N runs of the same simulation, each metric's mean with its
 * Student-t confidence interval and coefficient of variation. A latency's interval is computed on
 * the logarithms of the runs' values around their geometric mean ({@link
 * ConfidenceInterval#logScale}): never below 0; the interval of any other metric (rates, errors) is
 * cut at 0.
 *
 * @param n the number of runs
 * @param confidence the confidence level
 * @param rows one per metric present in every run
 * @param warnings about the runs as a whole (too few, different simulations)
 */
public record Intervals(int n, double confidence, List<Row> rows, List<String> warnings) {

  /**
   * One metric.
   *
   * @param metric the metric as the first run has it (name, direction, unit)
   * @param interval its interval over the runs
   */
  public record Row(MetricValue metric, ConfidenceInterval interval) {}

  /**
   * Computes the intervals.
   *
   * @param runs the runs, at least one
   * @param confidence the confidence level, e.g. 0.95
   * @param cvWarning the CV above which a metric is flagged, a fraction
   * @return the intervals
   */
  public static Intervals of(List<RunData> runs, double confidence, double cvWarning) {
    List<Map<String, MetricValue>> metrics = runs.stream().map(RunMetrics::of).toList();
    List<String> warnings = new ArrayList<>();
    if (runs.size() < 3) {
      warnings.add(
          "only "
              + runs.size()
              + " run(s): with fewer than 3 the intervals are very wide or undefined; repeat the"
              + " run");
    }
    warnings.addAll(sameSimulation(runs));
    List<Row> rows = new ArrayList<>();
    for (String name : common(metrics)) {
      double[] values = metrics.stream().mapToDouble(m -> m.get(name).value()).toArray();
      MetricValue metric = metrics.get(0).get(name);
      rows.add(
          new Row(
              metric,
              isLatency(metric)
                  ? ConfidenceInterval.logScale(values, confidence, cvWarning)
                  : nonNegative(ConfidenceInterval.studentT(values, confidence, cvWarning))));
    }
    return new Intervals(runs.size(), confidence, rows, warnings);
  }

  /** Whether a metric is a latency (ms): its interval is computed on a log scale. */
  static boolean isLatency(MetricValue metric) {
    return metric.unit().equals("ms");
  }

  /** A rate, a share or a count per second is never below 0: neither is its interval. */
  private static ConfidenceInterval nonNegative(ConfidenceInterval ci) {
    if (!ci.defined() || ci.lower() >= 0) {
      return ci;
    }
    return new ConfidenceInterval(
        ci.sample(), ci.confidence(), 0, ci.upper(), ci.warnings(), ci.centre(), false);
  }

  /** The metric names every run has, in the first run's order. */
  static Set<String> common(List<Map<String, MetricValue>> metrics) {
    Set<String> names = new LinkedHashSet<>(metrics.get(0).keySet());
    metrics.forEach(m -> names.retainAll(m.keySet()));
    return names;
  }

  static List<String> sameSimulation(List<RunData> runs) {
    Set<String> simulations = new LinkedHashSet<>();
    runs.forEach(r -> simulations.add(r.manifest().simulation()));
    if (simulations.size() > 1) {
      return List.of("the runs come from different simulations: " + String.join(", ", simulations));
    }
    return List.of();
  }

  /**
   * The table for the console.
   *
   * @return the rendered text
   */
  public String render() {
    List<String[]> table = new ArrayList<>();
    table.add(
        new String[] {
          "metric", "mean", Numbers.percent(confidence) + " CI", "±%", "CV", "n", "note"
        });
    for (Row row : rows) {
      ConfidenceInterval ci = row.interval();
      String unit = row.metric().unit();
      table.add(
          new String[] {
            row.metric().metric().name(),
            Numbers.number(ci.mean()) + " " + unit,
            ci.defined()
                ? "[" + Numbers.number(ci.lower()) + ", " + Numbers.number(ci.upper()) + "]"
                : "-",
            ci.defined() ? Numbers.percent(ci.relativeHalfWidth()) : "-",
            Numbers.percent(ci.coefficientOfVariation()),
            Integer.toString(ci.n()),
            String.join(
                "; ",
                java.util.stream.Stream.of(
                        ci.log() ? "geometric mean, log-scale CI" : "",
                        ci.highVariation() ? "high CV" : "")
                    .filter(t -> !t.isEmpty())
                    .toList())
          });
    }
    StringBuilder out = new StringBuilder();
    out.append("Intervals over ").append(n).append(" run(s)").append(System.lineSeparator());
    out.append(Numbers.table(table));
    for (String w : warnings) {
      out.append("WARNING: ").append(w).append(System.lineSeparator());
    }
    rows.stream()
        .filter(r -> r.interval().highVariation())
        .forEach(
            r ->
                out.append("WARNING: ")
                    .append(r.metric().metric().name())
                    .append(": ")
                    .append(String.join("; ", r.interval().warnings()))
                    .append(System.lineSeparator()));
    return out.toString();
  }
}
