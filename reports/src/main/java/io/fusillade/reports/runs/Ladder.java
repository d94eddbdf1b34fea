package io.fusillade.reports.runs;

import io.fusillade.record.RequestTotals;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.stats.Comparison;
import io.fusillade.reports.stats.SteppedComparison;
import io.fusillade.reports.stats.Verdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A concurrency ladder ({@code fusillade ladder}): runs of one query set at rising numbers of
 * sessions, each level repeated, read back as the analytical team's table: per query (and for the
 * whole set) and per level, the median over the repeats of the query's median time, and how many
 * completed per second; against a baseline ladder, the % change per level with {@code compare}'s
 * verdict ({@link SteppedComparison}), and the median % over the levels.
 *
 * @param levels the levels, ascending
 * @param names the request names: the queries in their first run's order, the whole set last
 * @param medianMs per name, per level: the median over repeats of the run's median time
 * @param perSecond per name, per level: the median over repeats of completed per second
 * @param repeats per level, how many runs
 * @param wholeSetMs per level: the median over repeats of the time of the whole set, from the start
 *     of the level to its last session's end (the analytical team's "time to run all queries")
 * @param failures the runs that failed, marked {@code x} in their level's column with the reason
 *     below the table
 */
public record Ladder(
    List<Double> levels,
    List<String> names,
    Map<String, Map<Double, Double>> medianMs,
    Map<String, Map<Double, Double>> perSecond,
    Map<Double, Integer> repeats,
    Map<Double, Double> wholeSetMs,
    List<Failure> failures) {

  /**
   * A run of the ladder that failed: kept and marked, not dropped (the analytical team marks the
   * runs that did not finish).
   *
   * @param level its level
   * @param repeat its repeat, from 1
   * @param reason why, in words
   */
  public record Failure(double level, int repeat, String reason) {}

  /** The same ladder with these runs marked as failed. */
  public Ladder withFailures(List<Failure> marked) {
    return new Ladder(levels, names, medianMs, perSecond, repeats, wholeSetMs, List.copyOf(marked));
  }

  /**
   * The runs whose requests failed though the run itself ended well (KO answers, timeouts), each
   * with its count and first reason, but those already in {@code known}.
   */
  public static List<Failure> erroredRuns(List<RunData> runs, List<Failure> known) {
    List<Failure> found = new ArrayList<>();
    for (RunData run : runs) {
      if (!(run.manifest().parameters().get(LEVEL) instanceof Number level)) {
        continue;
      }
      int repeat = run.manifest().parameters().get("repeat") instanceof Number r ? r.intValue() : 1;
      if (known.stream().anyMatch(f -> f.level() == level.doubleValue() && f.repeat() == repeat)) {
        continue;
      }
      long ko = run.requests().values().stream().mapToLong(RequestTotals::koCount).sum();
      if (ko > 0) {
        String reason =
            run.requests().values().stream()
                .flatMap(t -> t.errors().keySet().stream())
                .findFirst()
                .orElse("failed");
        found.add(new Failure(level.doubleValue(), repeat, ko + " KO (" + reason + ")"));
      }
    }
    return found;
  }

  /** The run.json parameter that gives a run's level. */
  public static final String LEVEL = RunComparison.LEVEL;

  /**
   * Reads the ladder of {@code runs}, each with a numeric {@value #LEVEL} parameter.
   *
   * @param runs the runs, any order
   * @param names the request names shown, in order (the queries, then the whole set); those no run
   *     has are left out
   */
  public static Ladder of(List<RunData> runs, List<String> names) {
    Map<Double, List<RunData>> byLevel = new TreeMap<>();
    LinkedHashSet<String> present = new LinkedHashSet<>();
    for (RunData run : runs) {
      if (!(run.manifest().parameters().get(LEVEL) instanceof Number level)) {
        continue;
      }
      byLevel.computeIfAbsent(level.doubleValue(), k -> new ArrayList<>()).add(run);
      present.addAll(run.requests().keySet());
    }
    List<String> shown = names.stream().filter(present::contains).distinct().toList();
    Map<String, Map<Double, Double>> medians = new LinkedHashMap<>();
    Map<String, Map<Double, Double>> rates = new LinkedHashMap<>();
    Map<Double, Integer> repeats = new TreeMap<>();
    for (String name : shown) {
      Map<Double, Double> m = new TreeMap<>();
      Map<Double, Double> r = new TreeMap<>();
      byLevel.forEach(
          (level, list) -> {
            List<Double> times = new ArrayList<>();
            List<Double> perSecond = new ArrayList<>();
            for (RunData run : list) {
              RequestTotals totals = run.requests().get(name);
              if (totals == null || totals.all().getTotalCount() == 0) {
                continue;
              }
              times.add(totals.all().getValueAtPercentile(50) / 1000.0);
              double seconds = run.durationSeconds();
              if (seconds > 0) {
                perSecond.add(totals.count() / seconds);
              }
            }
            if (!times.isEmpty()) {
              m.put(level, median(times));
            }
            if (!perSecond.isEmpty()) {
              r.put(level, median(perSecond));
            }
          });
      medians.put(name, m);
      rates.put(name, r);
    }
    byLevel.forEach((level, list) -> repeats.put(level, list.size()));
    Map<Double, Double> wholeSet = new TreeMap<>();
    String set = names.isEmpty() ? null : names.get(names.size() - 1);
    byLevel.forEach(
        (level, list) -> {
          List<Double> times = new ArrayList<>();
          for (RunData run : list) {
            RequestTotals totals = set == null ? null : run.requests().get(set);
            if (totals != null && totals.all().getTotalCount() > 0) {
              times.add(totals.all().getMaxValue() / 1000.0); // the last session's
            }
          }
          if (!times.isEmpty()) {
            wholeSet.put(level, median(times));
          }
        });
    return new Ladder(
        List.copyOf(byLevel.keySet()),
        List.copyOf(names),
        medians,
        rates,
        repeats,
        wholeSet,
        List.of());
  }

  /** A level as written: {@code 4}, not {@code 4.00}. */
  private static String level(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Numbers.number(value);
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /**
   * The table: a row per name, a column per level with its median time (and, against a baseline,
   * its % change and verdict: {@code +12.0% worse}, {@code -3.1% ~}), then the median % over the
   * levels; a last row with the whole set's completions per second.
   *
   * @param comparison the comparison with a baseline ladder (stepped by level), or null
   */
  public String render(RunComparison comparison) {
    String nl = System.lineSeparator();
    List<String[]> rows = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of("query \\ sessions"));
    levels.forEach(l -> header.add(level(l) + (failed(l) ? " x" : "")));
    if (comparison != null) {
      header.add("median %");
    }
    rows.add(header.toArray(String[]::new));
    for (String name : names) {
      List<String> row = new ArrayList<>();
      row.add(name);
      Optional<SteppedComparison> stepped =
          comparison == null ? Optional.empty() : stepped(comparison, "p50 [" + name + "]");
      for (double level : levels) {
        // a query no session sent (its set ran out of time first) has no time: "-"
        Double ms = medianMs.getOrDefault(name, Map.of()).get(level);
        String cell = ms == null ? "-" : Numbers.number(ms) + " ms";
        if (stepped.isPresent()) {
          cell += change(stepped.get(), level);
        }
        row.add(cell);
      }
      if (comparison != null) {
        row.add(
            stepped
                .filter(s -> Double.isFinite(s.medianRelativeChange()))
                .map(s -> percent(s.medianRelativeChange()))
                .orElse("-"));
      }
      rows.add(row.toArray(String[]::new));
    }
    if (!names.isEmpty() && !wholeSetMs.isEmpty()) {
      List<String> row = new ArrayList<>();
      row.add("whole set (all sessions)");
      for (double level : levels) {
        Double ms = wholeSetMs.get(level);
        row.add(ms == null ? "-" : Numbers.number(ms) + " ms");
      }
      if (comparison != null) {
        row.add("");
      }
      rows.add(row.toArray(String[]::new));
    }
    if (!names.isEmpty()) {
      String last = names.get(names.size() - 1);
      List<String> row = new ArrayList<>();
      row.add(last + " /s");
      for (double level : levels) {
        // a level whose runs all ended early has no rate of this query
        Double r = perSecond.getOrDefault(last, Map.of()).get(level);
        row.add(r == null ? "-" : Numbers.number(r));
      }
      if (comparison != null) {
        row.add("");
      }
      rows.add(row.toArray(String[]::new));
    }
    int[] width = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    StringBuilder out = new StringBuilder();
    out.append("Ladder: median time per query and level (median of ")
        .append(repeatsText())
        .append(")")
        .append(comparison != null ? ", % vs the baseline with compare's verdict" : "")
        .append(nl);
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder(" ");
      for (int i = 0; i < row.length; i++) {
        line.append(' ')
            .append(String.format(Locale.ROOT, "%" + (i == 0 ? "-" : "") + width[i] + "s", row[i]));
      }
      out.append(line.toString().stripTrailing()).append(nl);
    }
    for (Failure f : failures) {
      out.append("  x level ")
          .append(level(f.level()))
          .append(", run ")
          .append(f.repeat())
          .append(": ")
          .append(f.reason())
          .append(nl);
    }
    return out.toString();
  }

  /** Whether a run of this level failed. */
  private boolean failed(double level) {
    return failures.stream().anyMatch(f -> f.level() == level);
  }

  private String repeatsText() {
    int[] counts = repeats.values().stream().mapToInt(Integer::intValue).distinct().toArray();
    return counts.length == 1
        ? counts[0] + (counts[0] == 1 ? " run" : " runs") + " per level"
        : "runs per level: " + Arrays.toString(counts);
  }

  private static Optional<SteppedComparison> stepped(RunComparison comparison, String metric) {
    return comparison.stepped().stream().filter(s -> s.metric().name().equals(metric)).findFirst();
  }

  private static String change(SteppedComparison stepped, double level) {
    for (SteppedComparison.Level l : stepped.levels()) {
      if (l.level() == level) {
        Comparison c = l.comparison();
        String verdict =
            c.verdict() == Verdict.WORSE
                ? " worse"
                : c.verdict() == Verdict.BETTER ? " better" : " ~";
        return " " + percent(l.relativeChange()) + verdict;
      }
    }
    return "";
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, "%+.1f%%", fraction * 100);
  }
}
