package io.fusillade.reports.runs;

import io.fusillade.limit.LimitResult;
import io.fusillade.limit.StepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The limit search of a run ({@code fusillade limit}, {@code FusilladeLimit}), from {@code
 * run.json}'s {@code limit} parameter: its verdict, the rate found and every step. Also the console
 * table of the steps, which {@code fusillade summary}, {@code report} and the end of the run print.
 */
public final class LimitResults {
  private LimitResults() {}

  /** The run's search, when it ran one that ended (or was stopped) with a verdict. */
  public static Optional<LimitResult> of(RunData run) {
    Object recorded = run.manifest().parameters().get("limit");
    if (recorded instanceof Map<?, ?> map && map.get("verdict") != null) {
      return Optional.of(LimitResult.fromMap(map));
    }
    return Optional.empty();
  }

  /** Whether an event is one of the search's own (its steps and result): the table shows them. */
  public static boolean isLimitEvent(String kind) {
    return kind.startsWith("limit-");
  }

  /**
   * The steps as a console table, then the verdict: one row per step (phase, rate, achieved rate,
   * p50 and p99, errors, lag when measured, and pass or why not).
   */
  public static String table(LimitResult result) {
    String nl = System.lineSeparator();
    boolean lag = result.steps().stream().anyMatch(s -> s.lag() != null);
    List<String[]> rows = new ArrayList<>();
    rows.add(
        lag
            ? new String[] {
              "step",
              "phase",
              "rate/s",
              "achieved/s",
              "p50 ms",
              "p99 ms",
              "errors %",
              "lag",
              "verdict"
            }
            : new String[] {
              "step", "phase", "rate/s", "achieved/s", "p50 ms", "p99 ms", "errors %", "verdict"
            });
    for (StepResult s : result.steps()) {
      List<String> row = new ArrayList<>();
      row.add(Integer.toString(s.index()));
      row.add(s.phase());
      row.add(StepResult.rate(s.target()));
      row.add(StepResult.rate(s.achieved()));
      row.add(StepResult.number(s.p50Ms()));
      row.add(StepResult.number(s.p99Ms()));
      row.add(StepResult.number(s.errorPercent()));
      if (lag) {
        row.add(s.lag() == null ? "-" : s.lag());
      }
      row.add(s.verdict());
      rows.add(row.toArray(String[]::new));
    }
    int columns = rows.get(0).length;
    int[] width = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    StringBuilder out = new StringBuilder("Limit search:").append(nl);
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder(" ");
      for (int i = 0; i < columns; i++) {
        boolean text = i == 1 || i == columns - 1 || (lag && i == columns - 2);
        line.append(' ')
            .append(String.format(Locale.ROOT, "%" + (text ? "-" : "") + width[i] + "s", row[i]));
      }
      out.append(line.toString().stripTrailing()).append(nl);
    }
    out.append("Limit: ").append(result.describe()).append(nl);
    return out.toString();
  }
}
