package io.fusillade.reports.summary;

import io.fusillade.record.RunStatus;
import io.fusillade.reports.format.Numbers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** Renders a {@link RunSummary} as a plain-text table for the console. */
public final class SummaryTable {
  private static final String[] HEADER = {
    "request", "count", "OK", "KO", "rate/s", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms"
  };

  private SummaryTable() {}

  public static String render(RunSummary summary) {
    StringBuilder out = new StringBuilder();
    var manifest = summary.manifest();
    out.append(
        String.format(
            Locale.ROOT,
            "Run %s (%s): %s, %.1f s%n",
            manifest.runId(),
            manifest.simulation(),
            describe(manifest.status()),
            summary.durationSeconds()));

    List<String[]> rows = new ArrayList<>();
    rows.add(HEADER);
    for (RequestSummary r : summary.requests()) {
      rows.add(
          new String[] {
            r.name(),
            Long.toString(r.count()),
            Long.toString(r.ok()),
            Long.toString(r.ko()),
            Numbers.number(r.rate()),
            Numbers.number(r.p50Ms()),
            Numbers.number(r.p90Ms()),
            Numbers.number(r.p99Ms()),
            Numbers.number(r.p999Ms()),
            Numbers.number(r.maxMs())
          });
    }
    appendTable(out, rows);

    for (RequestSummary r : summary.requests()) {
      for (Map.Entry<String, Long> error : r.errors().entrySet()) {
        out.append(
            String.format(
                Locale.ROOT, "  KO %s: %d × %s%n", r.name(), error.getValue(), error.getKey()));
      }
    }
    Histogram lag = summary.metrics().get("injector.lag");
    if (lag != null && lag.getTotalCount() > 0) {
      out.append(
          String.format(
              Locale.ROOT,
              "Injector lag: p50 %s ms, p99 %s ms, max %s ms%n",
              Numbers.number(lag.getValueAtPercentile(50) / 1000.0),
              Numbers.number(lag.getValueAtPercentile(99) / 1000.0),
              Numbers.number(lag.getMaxValue() / 1000.0)));
    }
    for (String flag : manifest.flags()) {
      out.append("WARNING: ").append(flag).append(System.lineSeparator());
    }
    if (summary.truncatedLines() > 0) {
      out.append(
          String.format(
              Locale.ROOT,
              "(%d unfinished line(s) at the end of the record were skipped)%n",
              summary.truncatedLines()));
    }
    return out.toString();
  }

  private static String describe(RunStatus status) {
    return switch (status) {
      case COMPLETED -> "completed";
      case RUNNING -> "still running (partial)";
      case INCOMPLETE -> "INCOMPLETE: the run was killed; the record covers the time until then";
      case ABORTED -> "ABORTED before its end";
      case FAILED -> "FAILED";
    };
  }

  private static void appendTable(StringBuilder out, List<String[]> rows) {
    int[] widths = new int[HEADER.length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        if (i == 0) {
          out.append(String.format("%-" + widths[i] + "s", row[i]));
        } else {
          out.append("  ").append(String.format("%" + widths[i] + "s", row[i]));
        }
      }
      out.append(System.lineSeparator());
    }
  }
}
