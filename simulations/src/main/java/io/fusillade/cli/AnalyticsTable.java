package io.fusillade.cli;

import io.fusillade.record.RunStatus;
import io.fusillade.reports.runs.Ladder;
import io.fusillade.reports.runs.RunComparison;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.stats.Comparison;
import io.fusillade.reports.stats.SteppedComparison;
import io.fusillade.reports.stats.Verdict;
import io.fusillade.scenarios.sql.SqlLadderRun;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The seed's over-subscription table, from a baseline ladder and a starved one ({@code fusillade
 * study analytics}): per level, the time of the whole query set (the median over repeats, from the
 * level's start to its last session's end) in both, the % change and compare's verdict on the
 * sessions' set times, the machine's CPU use and steal and the server's processes' CPU (means over
 * the runs' seconds, medians over repeats), the server's log warnings (all repeats), and the runs
 * that failed, marked x; under it the median % over the levels.
 *
 * @param rows one per level, ascending
 * @param medianPercent the median of the levels' % changes, or NaN
 */
record AnalyticsTable(List<AnalyticsTable.Row> rows, double medianPercent) {

  /** One level of both ladders. */
  record Row(
      double level,
      double baseMs,
      double starvedMs,
      String verdict,
      double[] cpu,
      double[] steal,
      double[] serverCpu,
      long[] warnings,
      int[] failed,
      int[] runs) {
    double percent() {
      return 100 * (starvedMs / baseMs - 1);
    }
  }

  /** The table of the two ladders' runs. */
  static AnalyticsTable of(List<RunData> baseline, List<RunData> starved) {
    List<String> names = List.of(SqlLadderRun.SET);
    Ladder b = Ladder.of(baseline, names);
    Ladder s = Ladder.of(starved, names);
    RunComparison comparison =
        RunComparison.of(baseline, starved, Comparison.Settings.DEFAULTS, RunComparison.LEVEL);
    SteppedComparison stepped =
        comparison.stepped().stream()
            .filter(c -> c.metric().name().equals("p50 [" + SqlLadderRun.SET + "]"))
            .findFirst()
            .orElse(null);
    TreeSet<Double> levels = new TreeSet<>(b.levels());
    levels.addAll(s.levels());
    List<Row> rows = new ArrayList<>();
    List<Double> percents = new ArrayList<>();
    for (double level : levels) {
      List<RunData> bl = at(baseline, level);
      List<RunData> sl = at(starved, level);
      Row row =
          new Row(
              level,
              b.wholeSetMs().getOrDefault(level, Double.NaN),
              s.wholeSetMs().getOrDefault(level, Double.NaN),
              verdict(stepped, level),
              new double[] {busy(bl), busy(sl)},
              new double[] {gauge(bl, "system.cpu.steal"), gauge(sl, "system.cpu.steal")},
              new double[] {gauge(bl, "process.postgres.cpu"), gauge(sl, "process.postgres.cpu")},
              new long[] {warnings(bl), warnings(sl)},
              new int[] {failed(bl), failed(sl)},
              new int[] {bl.size(), sl.size()});
      rows.add(row);
      if (Double.isFinite(row.percent())) {
        percents.add(row.percent());
      }
    }
    return new AnalyticsTable(rows, median(percents));
  }

  private static List<RunData> at(List<RunData> runs, double level) {
    return runs.stream()
        .filter(
            r ->
                r.manifest().parameters().get(Ladder.LEVEL) instanceof Number n
                    && n.doubleValue() == level)
        .toList();
  }

  private static String verdict(SteppedComparison stepped, double level) {
    if (stepped == null) {
      return "-";
    }
    for (SteppedComparison.Level l : stepped.levels()) {
      if (l.level() == level) {
        Verdict v = l.comparison().verdict();
        return v == Verdict.WORSE
            ? "worse"
            : v == Verdict.BETTER ? "better" : "~ (not significant)";
      }
    }
    return "-";
  }

  /** The machine's CPU in use, %: 100 - idle, mean over seconds, median over runs. */
  private static double busy(List<RunData> runs) {
    double idle = gauge(runs, "system.cpu.idle");
    return Double.isNaN(idle) ? Double.NaN : 100 - idle;
  }

  private static double gauge(List<RunData> runs, String name) {
    List<Double> means = new ArrayList<>();
    for (RunData run : runs) {
      double[] values = run.gauges().get(name);
      if (values != null) {
        double[] finite = Arrays.stream(values).filter(Double::isFinite).toArray();
        if (finite.length > 0) {
          means.add(Arrays.stream(finite).average().getAsDouble());
        }
      }
    }
    return median(means);
  }

  /** The server's log lines matching "warning" over the runs ({@code health.logs}). */
  private static long warnings(List<RunData> runs) {
    long total = 0;
    for (RunData run : runs) {
      if (run.manifest().health().get("logs") instanceof Map<?, ?> sources) {
        for (Object source : sources.values()) {
          if (source instanceof Map<?, ?> s
              && s.get("lines") instanceof Map<?, ?> lines
              && lines.get("warning") instanceof Number n) {
            total += n.longValue();
          }
        }
      }
    }
    return total;
  }

  private static int failed(List<RunData> runs) {
    int failed = 0;
    for (RunData run : runs) {
      boolean ko =
          run.requests().values().stream().anyMatch(t -> t.koCount() > 0)
              || run.status() != RunStatus.COMPLETED;
      failed += ko ? 1 : 0;
    }
    return failed;
  }

  private static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** The table as text, with its legend. */
  String render(String starve) {
    String nl = System.lineSeparator();
    List<String[]> lines = new ArrayList<>();
    lines.add(
        new String[] {
          "sessions",
          "baseline set",
          "starved set",
          "change",
          "verdict",
          "CPU % b/s",
          "steal % b/s",
          "pg CPU % b/s",
          "log warnings b/s",
          "failed b/s"
        });
    for (Row r : rows) {
      lines.add(
          new String[] {
            level(r.level()),
            seconds(r.baseMs()),
            seconds(r.starvedMs()),
            Double.isFinite(r.percent()) ? String.format(Locale.ROOT, "%+.0f%%", r.percent()) : "-",
            r.verdict(),
            pair(r.cpu()),
            pair(r.steal()),
            pair(r.serverCpu()),
            r.warnings()[0] + "/" + r.warnings()[1],
            marks(r.failed()[0], r.runs()[0]) + "/" + marks(r.failed()[1], r.runs()[1])
          });
    }
    int[] width = new int[lines.get(0).length];
    for (String[] line : lines) {
      for (int i = 0; i < line.length; i++) {
        width[i] = Math.max(width[i], line[i].length());
      }
    }
    StringBuilder out = new StringBuilder();
    out.append("Analytics study: the query set's time per level, baseline vs starved (")
        .append(starve)
        .append(")")
        .append(nl);
    for (String[] line : lines) {
      StringBuilder l = new StringBuilder(" ");
      for (int i = 0; i < line.length; i++) {
        l.append(' ')
            .append(
                String.format(Locale.ROOT, "%" + (i == 0 ? "-" : "") + width[i] + "s", line[i]));
      }
      out.append(l.toString().stripTrailing()).append(nl);
    }
    out.append("  median change over the levels: ")
        .append(
            Double.isFinite(medianPercent)
                ? String.format(Locale.ROOT, "%+.0f%%", medianPercent)
                : "-")
        .append(" (the seed's published medians: +50% and +160%)")
        .append(nl)
        .append("  set: from the level's start to its last session's end, median of the repeats;")
        .append(" verdict: compare's, on the sessions' set times; CPU: the machine's in use")
        .append(" (100 - idle), steal: the machine's, pg CPU: the postgres processes' (% of one")
        .append(" core), each the mean over a run's seconds, median of the repeats; log")
        .append(" warnings: the server's log lines matching WARNING|could not send, all repeats;")
        .append(" failed: runs with a KO or not completed, x per run")
        .append(nl);
    return out.toString();
  }

  private static String level(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.valueOf(v);
  }

  private static String seconds(double ms) {
    return Double.isFinite(ms) ? String.format(Locale.ROOT, "%.2f s", ms / 1000) : "-";
  }

  private static String pair(double[] v) {
    return one(v[0]) + "/" + one(v[1]);
  }

  private static String one(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.0f", v) : "-";
  }

  private static String marks(int failed, int runs) {
    return failed == 0 ? (runs == 0 ? "-" : "0") : "x".repeat(failed);
  }

  /** Whether every level of the starved ladder from {@code from} on is significantly worse. */
  boolean slowerFrom(double from) {
    return rows.stream()
        .filter(r -> r.level() >= from)
        .allMatch(r -> r.verdict().equals("worse") && r.percent() > 0);
  }

  /** The levels, for tests. */
  Map<Double, Row> byLevel() {
    Map<Double, Row> m = new TreeMap<>();
    rows.forEach(r -> m.put(r.level(), r));
    return m;
  }
}
