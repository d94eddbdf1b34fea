package io.fusillade.reports.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The comparison of stepped runs, level by level: for runs that step through load levels
 * (concurrency 1, 4, 8 ... 100, or rate steps), the relative change of the candidate vs the
 * baseline at each level, and the median of those changes over the levels. This is the view
 * Arenadata publishes ("+50% median over the concurrency levels").
 *
 * <p>Each level gets a full {@link Comparison}: with one value per level and side (a single series)
 * its verdict is "no significant change (not enough runs)" but its relative change is still given;
 * with repeated series per level (Arenadata measures each series three times) each level is tested.
 * The median is taken over the levels present on both sides whose relative change is finite; levels
 * present on one side only (a run that did not reach them) are listed, not dropped.
 *
 * @param metric the metric compared, e.g. the time to run all queries at a level
 * @param levels the levels present on both sides, in increasing order
 * @param medianRelativeChange the median of the levels' relative changes, a fraction; {@code NaN}
 *     when no level has a finite one
 * @param baselineOnly levels that only the baseline has
 * @param candidateOnly levels that only the candidate has
 */
public record SteppedComparison(
    Metric metric,
    List<Level> levels,
    double medianRelativeChange,
    List<Double> baselineOnly,
    List<Double> candidateOnly) {

  /**
   * Copies the lists.
   *
   * @param metric see {@link #metric()}
   * @param levels see {@link #levels()}
   * @param medianRelativeChange see {@link #medianRelativeChange()}
   * @param baselineOnly see {@link #baselineOnly()}
   * @param candidateOnly see {@link #candidateOnly()}
   */
  public SteppedComparison {
    Objects.requireNonNull(metric, "metric");
    levels = List.copyOf(levels);
    baselineOnly = List.copyOf(baselineOnly);
    candidateOnly = List.copyOf(candidateOnly);
  }

  /**
   * One load level.
   *
   * @param level the level: a concurrency, a rate
   * @param comparison the comparison of the values at this level
   */
  public record Level(double level, Comparison comparison) {

    /**
     * Checks the fields.
     *
     * @param level see {@link #level()}
     * @param comparison see {@link #comparison()}
     */
    public Level {
      Objects.requireNonNull(comparison, "comparison");
    }

    /**
     * The relative change at this level, a fraction.
     *
     * @return candidate mean / baseline mean - 1
     */
    public double relativeChange() {
      return comparison.relativeChange();
    }
  }

  /**
   * Compares stepped runs with the default settings.
   *
   * @param metric the metric and its direction
   * @param baseline per level, the baseline values (one per series)
   * @param candidate per level, the candidate values (one per series)
   * @return the stepped comparison
   */
  public static SteppedComparison compare(
      Metric metric, Map<Double, double[]> baseline, Map<Double, double[]> candidate) {
    return compare(metric, baseline, candidate, Comparison.Settings.DEFAULTS);
  }

  /**
   * Compares stepped runs level by level.
   *
   * @param metric the metric and its direction
   * @param baseline per level, the baseline values (one per series), each not empty
   * @param candidate per level, the candidate values (one per series), each not empty
   * @param settings alpha and threshold for each level's comparison
   * @return the stepped comparison
   */
  public static SteppedComparison compare(
      Metric metric,
      Map<Double, double[]> baseline,
      Map<Double, double[]> candidate,
      Comparison.Settings settings) {
    TreeMap<Double, double[]> b = new TreeMap<>(baseline);
    TreeMap<Double, double[]> c = new TreeMap<>(candidate);
    List<Level> levels = new ArrayList<>();
    List<Double> baselineOnly = new ArrayList<>();
    List<Double> candidateOnly = new ArrayList<>();
    for (Map.Entry<Double, double[]> e : b.entrySet()) {
      double[] cand = c.get(e.getKey());
      if (cand == null) {
        baselineOnly.add(e.getKey());
      } else {
        levels.add(new Level(e.getKey(), Comparison.compare(metric, e.getValue(), cand, settings)));
      }
    }
    for (Double level : c.keySet()) {
      if (!b.containsKey(level)) {
        candidateOnly.add(level);
      }
    }
    double[] changes =
        levels.stream().mapToDouble(Level::relativeChange).filter(Double::isFinite).toArray();
    double median = changes.length == 0 ? Double.NaN : median(changes);
    return new SteppedComparison(metric, levels, median, baselineOnly, candidateOnly);
  }

  private static double median(double[] values) {
    double[] s = values.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  /**
   * The median relative change in percent.
   *
   * @return {@code 100 · medianRelativeChange}
   */
  public double medianRelativeChangePercent() {
    return medianRelativeChange * 100;
  }

  /**
   * How many levels got the given verdict.
   *
   * @param verdict a verdict
   * @return the number of levels with it
   */
  public long count(Verdict verdict) {
    return levels.stream().filter(l -> l.comparison().verdict() == verdict).count();
  }

  /**
   * A one-line summary, e.g. {@code "time: median +50.0% over 11 levels (worse at 9, better at 0,
   * no significant change at 2)"}.
   *
   * @return the summary
   */
  public String summary() {
    StringBuilder s =
        new StringBuilder(metric.name())
            .append(": median ")
            .append(Texts.signedPercent(medianRelativeChange))
            .append(" over ")
            .append(levels.size())
            .append(levels.size() == 1 ? " level" : " levels")
            .append(" (worse at ")
            .append(count(Verdict.WORSE))
            .append(", better at ")
            .append(count(Verdict.BETTER))
            .append(", no significant change at ")
            .append(count(Verdict.NO_SIGNIFICANT_CHANGE))
            .append(')');
    if (!baselineOnly.isEmpty()) {
      s.append("; only in the baseline: ").append(levelList(baselineOnly));
    }
    if (!candidateOnly.isEmpty()) {
      s.append("; only in the candidate: ").append(levelList(candidateOnly));
    }
    return s.toString();
  }

  private static String levelList(List<Double> levels) {
    return String.join(", ", levels.stream().map(Texts::number).toList());
  }
}
