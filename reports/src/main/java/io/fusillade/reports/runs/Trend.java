package io.fusillade.reports.runs;

import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.stats.changepoint.ChangePoint;
import io.fusillade.reports.stats.changepoint.ChangePoints;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code fusillade trend}: a history of runs of one simulation (one per build), ordered by start
 * time, and per metric its change points ({@link ChangePoints}: E-divisive with a permutation test,
 * so a change is reported only when it is significant, whatever its size).
 *
 * @param runIds the runs' ids, oldest first
 * @param series one per metric present in every run
 * @param warnings about the history as a whole
 */
public record Trend(List<String> runIds, List<Series> series, List<String> warnings) {

  /**
   * One metric over the history.
   *
   * @param metric the metric as the first run has it
   * @param values one per run, oldest first
   * @param changes its change points
   */
  public record Series(MetricValue metric, double[] values, ChangePoints changes) {}

  /**
   * Analyses a history.
   *
   * @param runs the runs, in any order (sorted by start time here)
   * @param settings how change points are searched
   * @return the trend
   */
  public static Trend of(List<RunData> runs, ChangePoints.Settings settings) {
    List<RunData> ordered = new ArrayList<>(runs);
    ordered.sort(java.util.Comparator.comparingLong(RunData::startEpochMs));
    List<Map<String, MetricValue>> metrics = ordered.stream().map(RunMetrics::of).toList();
    List<String> warnings = new ArrayList<>(Intervals.sameSimulation(ordered));
    if (ordered.size() < 2 * settings.minSegmentSize()) {
      warnings.add(
          ordered.size()
              + " runs: at least "
              + 2 * settings.minSegmentSize()
              + " are needed to find a change point");
    }
    List<Series> series = new ArrayList<>();
    java.util.Set<String> names = Intervals.common(metrics);
    ChangePoints.Settings perMetric = bonferroni(settings, names.size());
    for (String name : names) {
      double[] values = metrics.stream().mapToDouble(m -> m.get(name).value()).toArray();
      series.add(
          new Series(metrics.get(0).get(name), values, ChangePoints.detect(values, perMetric)));
    }
    List<String> ids = ordered.stream().map(r -> r.manifest().runId()).toList();
    return new Trend(ids, series, warnings);
  }

  /**
   * Many metrics are searched at once, so each is searched at {@code alpha / metrics} (Bonferroni):
   * the chance of a false change point in any metric of a history without change stays at most
   * {@code alpha}. The permutations are raised so that such a p-value can be reached.
   */
  static ChangePoints.Settings bonferroni(ChangePoints.Settings settings, int metrics) {
    if (metrics <= 1) {
      return settings;
    }
    double alpha = settings.alpha() / metrics;
    int permutations = Math.max(settings.permutations(), (int) Math.ceil(2 / alpha) - 1);
    return new ChangePoints.Settings(
        permutations, alpha, settings.minSegmentSize(), settings.exponent(), settings.seed());
  }

  /**
   * The list of change points for the console.
   *
   * @return one line per change point, with the run where it began
   */
  public String render() {
    StringBuilder out = new StringBuilder();
    String nl = System.lineSeparator();
    out.append("Trend over ").append(runIds.size()).append(" runs").append(nl);
    int found = 0;
    for (Series s : series) {
      for (ChangePoint c : s.changes().points()) {
        found++;
        out.append(
            String.format(
                java.util.Locale.ROOT,
                "%s: change at run %d (%s): %s -> %s %s (%s), %s%n",
                s.metric().metric().name(),
                c.index() + 1,
                runIds.get(c.index()),
                Numbers.number(c.meanBefore()),
                Numbers.number(c.meanAfter()),
                s.metric().unit(),
                Numbers.signedPercent(c.relativeChange()),
                Numbers.pValue(c.pValue())));
      }
    }
    if (found == 0) {
      out.append("No change point in any metric.").append(nl);
    }
    for (String w : warnings) {
      out.append("WARNING: ").append(w).append(nl);
    }
    return out.toString();
  }
}
