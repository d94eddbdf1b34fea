package io.fusillade.reports.runs;

import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.stats.Comparison;
import io.fusillade.reports.stats.SteppedComparison;
import io.fusillade.reports.stats.Verdict;
import io.fusillade.reports.stats.WelchTest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code fusillade compare}: candidate runs against baseline runs, metric by metric ({@link
 * Comparison}: Welch's test, relative change with its interval, verdict). When every run carries a
 * numeric level parameter ({@code level} unless told otherwise: the concurrency or rate of a
 * stepped series) and there are at least two levels, the runs are compared level by level instead
 * ({@link SteppedComparison}: % change per level and its median).
 *
 * @param comparisons per metric, over all runs; empty in the stepped view
 * @param stepped per metric, level by level; empty unless the runs are stepped
 * @param levelParameter the parameter that gives a run's level
 * @param units per metric name, its unit
 * @param warnings about the runs as a whole
 * @param parameterDifferences the run parameters set differently for the two sides ({@link
 *     ParameterDifferences}): a server setting, the seed, the rate
 */
public record RunComparison(
    List<Comparison> comparisons,
    List<SteppedComparison> stepped,
    String levelParameter,
    Map<String, String> units,
    List<String> warnings,
    List<String> parameterDifferences) {

  /** The default level parameter. */
  public static final String LEVEL = "level";

  /**
   * Compares.
   *
   * @param baseline the baseline runs
   * @param candidate the candidate runs
   * @param settings alpha and threshold
   * @param levelParameter the run parameter that gives a stepped run's level
   * @return the comparison
   */
  public static RunComparison of(
      List<RunData> baseline,
      List<RunData> candidate,
      Comparison.Settings settings,
      String levelParameter) {
    List<Map<String, MetricValue>> b = baseline.stream().map(RunMetrics::of).toList();
    List<Map<String, MetricValue>> c = candidate.stream().map(RunMetrics::of).toList();
    List<Map<String, MetricValue>> all = new ArrayList<>(b);
    all.addAll(c);
    List<String> warnings = new ArrayList<>();
    List<RunData> runs = new ArrayList<>(baseline);
    runs.addAll(candidate);
    warnings.addAll(Intervals.sameSimulation(runs));
    Map<String, String> units = new LinkedHashMap<>();
    List<Comparison> comparisons = new ArrayList<>();
    List<SteppedComparison> stepped = new ArrayList<>();
    double[] bLevels = levels(baseline, levelParameter);
    double[] cLevels = levels(candidate, levelParameter);
    boolean isStepped =
        bLevels != null
            && cLevels != null
            && java.util.Arrays.stream(bLevels).distinct().count() > 1;
    for (String name : Intervals.common(all)) {
      MetricValue template = b.get(0).get(name);
      units.put(name, template.unit());
      if (isStepped) {
        stepped.add(
            SteppedComparison.compare(
                template.metric(), byLevel(b, bLevels, name), byLevel(c, cLevels, name), settings));
      } else {
        comparisons.add(
            Comparison.compare(template.metric(), values(b, name), values(c, name), settings));
      }
    }
    return new RunComparison(
        comparisons,
        stepped,
        levelParameter,
        units,
        warnings,
        ParameterDifferences.between(baseline, candidate));
  }

  private static double[] values(List<Map<String, MetricValue>> runs, String name) {
    return runs.stream().mapToDouble(m -> m.get(name).value()).toArray();
  }

  private static double[] levels(List<RunData> runs, String parameter) {
    double[] levels = new double[runs.size()];
    for (int i = 0; i < levels.length; i++) {
      if (!(runs.get(i).manifest().parameters().get(parameter) instanceof Number n)) {
        return null;
      }
      levels[i] = n.doubleValue();
    }
    return levels;
  }

  private static Map<Double, double[]> byLevel(
      List<Map<String, MetricValue>> runs, double[] levels, String name) {
    Map<Double, List<Double>> grouped = new TreeMap<>();
    for (int i = 0; i < levels.length; i++) {
      grouped.computeIfAbsent(levels[i], l -> new ArrayList<>()).add(runs.get(i).get(name).value());
    }
    Map<Double, double[]> out = new TreeMap<>();
    grouped.forEach((l, v) -> out.put(l, v.stream().mapToDouble(Double::doubleValue).toArray()));
    return out;
  }

  /**
   * Whether any metric (or any level of a stepped metric) got worse.
   *
   * @return true on a regression
   */
  public boolean anyWorse() {
    return comparisons.stream().anyMatch(Comparison::isWorse)
        || stepped.stream().anyMatch(s -> s.count(Verdict.WORSE) > 0);
  }

  /**
   * The tables for the console.
   *
   * @return the rendered text
   */
  public String render() {
    StringBuilder out = new StringBuilder();
    String nl = System.lineSeparator();
    if (!parameterDifferences.isEmpty()) {
      out.append("Set differently (baseline → candidate):").append(nl);
      parameterDifferences.forEach(line -> out.append("  ").append(line).append(nl));
    }
    if (!comparisons.isEmpty()) {
      List<String[]> table = new ArrayList<>();
      table.add(
          new String[] {
            "metric",
            "baseline",
            "candidate",
            "change",
            "CI of change",
            "difference CI",
            "p",
            "verdict"
          });
      for (Comparison c : comparisons) {
        WelchTest t = c.test();
        String unit = units.get(c.metric().name());
        table.add(
            new String[] {
              c.metric().name(),
              Numbers.number(t.baseline().mean()) + " " + unit,
              Numbers.number(t.candidate().mean()) + " " + unit,
              Numbers.signedPercent(t.relativeChange()),
              t.relativeIntervalBounded()
                  ? "["
                      + Numbers.signedPercent(t.relativeLower())
                      + ", "
                      + Numbers.signedPercent(t.relativeUpper())
                      + "]"
                  : "-",
              t.defined()
                  ? "[" + Numbers.number(t.lower()) + ", " + Numbers.number(t.upper()) + "]"
                  : "-",
              Numbers.pValue(t.pValue()).substring(2),
              c.verdict() == Verdict.WORSE ? "WORSE" : c.verdict().label()
            });
      }
      out.append(Numbers.table(table));
      comparisons.stream()
          .flatMap(c -> c.warnings().stream().map(w -> c.metric().name() + ": " + w))
          .distinct()
          .limit(20)
          .forEach(w -> out.append("WARNING: ").append(w).append(nl));
    }
    for (SteppedComparison s : stepped) {
      out.append(s.summary()).append(nl);
      List<String[]> table = new ArrayList<>();
      table.add(
          new String[] {"  " + levelParameter, "baseline", "candidate", "change", "p", "verdict"});
      for (SteppedComparison.Level level : s.levels()) {
        WelchTest t = level.comparison().test();
        table.add(
            new String[] {
              "  " + Numbers.number(level.level()),
              Numbers.number(t.baseline().mean()),
              Numbers.number(t.candidate().mean()),
              Numbers.signedPercent(level.relativeChange()),
              Numbers.pValue(t.pValue()).substring(2),
              level.comparison().verdict().label()
            });
      }
      out.append(Numbers.table(table));
    }
    for (String w : warnings) {
      out.append("WARNING: ").append(w).append(nl);
    }
    out.append(anyWorse() ? "Verdict: WORSE" : "Verdict: no regression").append(nl);
    return out.toString();
  }
}
