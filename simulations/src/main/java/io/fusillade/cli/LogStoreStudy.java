package io.fusillade.cli;

import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.SecondCounts;
import io.fusillade.reports.checks.CheckResult;
import io.fusillade.reports.report.Report;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * The log-store study's side-by-side table, read from the run record of each store ({@code
 * fusillade study log-stores}): the write (logs/s and MiB/s over the ingest's own span, the CPU
 * seconds and peak RSS of the server's processes and of the injector over that span, from their
 * {@code process.*} gauges), time-to-searchable, each read's latency (avg, p50, p95 of its OK
 * answers), whether each read agreed with the generator's counts, and each run's checks; a last
 * column divides the second store's value by the first's.
 *
 * <p>The server's processes are those {@code LogsTarget} watched: {@code process.<store>-<n>} (each
 * OpenSearch node's JVM, each seq-db process). A store in the injector's JVM has none: its CPU is
 * the injector's and the row says so.
 */
final class LogStoreStudy {
  /** One store's run, as read back. */
  record Side(String store, Path run, RunRecord record, Report report) {}

  /** One line of the table: its label, one value per store, and how to show a value. */
  private record Row(String label, List<Double> values, Function<Double, String> format) {}

  private final List<Side> sides;
  private final List<String> reads;
  private final List<Row> rows = new ArrayList<>();

  private LogStoreStudy(List<Side> sides, List<String> reads) {
    this.sides = List.copyOf(sides);
    this.reads = List.copyOf(reads);
    build();
  }

  /**
   * @param runs each store's run directory, in the table's order (the ratio is the second's over
   *     the first's)
   * @param reads the read-path scenarios' names, in order
   */
  static LogStoreStudy of(Map<String, Path> runs, List<String> reads) {
    List<Side> sides = new ArrayList<>();
    runs.forEach(
        (store, run) ->
            sides.add(
                new Side(
                    store,
                    run,
                    RunRecordReader.read(run),
                    Report.create(List.of(run), List.of()))));
    return new LogStoreStudy(sides, reads);
  }

  List<Side> sides() {
    return sides;
  }

  private void build() {
    rows.add(
        row("documents written", s -> total(s.record(), "logs.documents"), LogStoreStudy::count));
    rows.add(row("write seconds", s -> window(s.record()).seconds(), v -> fixed(v, 2)));
    rows.add(
        row(
            "logs/s",
            s -> total(s.record(), "logs.documents") / window(s.record()).seconds(),
            LogStoreStudy::count));
    rows.add(
        row(
            "MiB/s",
            s -> total(s.record(), "logs.bytes") / (1 << 20) / window(s.record()).seconds(),
            v -> fixed(v, 1)));
    rows.add(row("server CPU-s (write)", s -> cpuSeconds(s, serverPrefix(s)), v -> fixed(v, 1)));
    rows.add(
        row(
            "server CPU ms per 1,000 logs",
            s -> 1e6 * cpuSeconds(s, serverPrefix(s)) / total(s.record(), "logs.documents"),
            v -> fixed(v, 2)));
    rows.add(row("server peak RSS MiB", s -> peakRss(s, serverPrefix(s)), v -> fixed(v, 0)));
    rows.add(
        row("injector CPU-s (write)", s -> cpuSeconds(s, "process.injector."), v -> fixed(v, 1)));
    rows.add(
        row(
            "injector CPU ms per 1,000 logs",
            s -> 1e6 * cpuSeconds(s, "process.injector.") / total(s.record(), "logs.documents"),
            v -> fixed(v, 2)));
    rows.add(row("time-to-searchable p50 ms", s -> metric(s, 50), v -> fixed(v, 0)));
    rows.add(row("time-to-searchable p99 ms", s -> metric(s, 99), v -> fixed(v, 0)));
    for (String read : reads) {
      rows.add(row(read + " avg ms", s -> latency(s, read, -1), v -> fixed(v, 1)));
      rows.add(row(read + " p50 ms", s -> latency(s, read, 50), v -> fixed(v, 1)));
      rows.add(row(read + " p95 ms", s -> latency(s, read, 95), v -> fixed(v, 1)));
      rows.add(row(read + " reads/s", s -> rate(s, read), v -> fixed(v, 0)));
    }
  }

  private Row row(String label, Function<Side, Double> value, Function<Double, String> format) {
    return new Row(label, sides.stream().map(value).toList(), format);
  }

  /** The gauge prefix of the store's own processes. */
  private static String serverPrefix(Side side) {
    return "process." + side.store() + "-";
  }

  /** The ingest's span: the {@code ingestWindow} parameter, or the seconds that had bulks. */
  record Window(long startEpochMs, long endEpochMs) {
    double seconds() {
      return Math.max(0.001, (endEpochMs - startEpochMs) / 1000.0);
    }

    /** Whether second {@code s} (its interval ends at {@code s.epochMs()}) overlaps the span. */
    boolean covers(SecondCounts s) {
      return covers(s, 1000);
    }

    /** Whether an interval of {@code lengthMs} ending with {@code s} overlaps the span. */
    boolean covers(SecondCounts s, long lengthMs) {
      return s.epochMs() > startEpochMs && s.epochMs() - lengthMs < endEpochMs;
    }
  }

  static Window window(RunRecord record) {
    if (record.manifest().parameters().get("ingestWindow") instanceof Map<?, ?> w
        && w.get("startEpochMs") instanceof Number start
        && w.get("endEpochMs") instanceof Number end) {
      return new Window(start.longValue(), end.longValue());
    }
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (SecondCounts s : record.seconds()) {
      if (s.counters().getOrDefault("logs.documents", 0L) > 0) {
        first = Math.min(first, s.epochMs() - 1000);
        last = Math.max(last, s.epochMs());
      }
    }
    return first == Long.MAX_VALUE ? new Window(0, 1) : new Window(first, last);
  }

  private static double total(RunRecord record, String counter) {
    return record.seconds().stream().mapToLong(s -> s.counters().getOrDefault(counter, 0L)).sum();
  }

  /**
   * The CPU seconds of the processes whose gauges start with {@code prefix} over the ingest's span:
   * each second's CPU (% of one core) summed over them, NaN when none was measured.
   */
  static double cpuSeconds(Side side, String prefix) {
    Window window = window(side.record());
    double seconds = 0;
    boolean any = false;
    List<SecondCounts> all = side.record().seconds();
    for (int i = 0; i < all.size(); i++) {
      SecondCounts s = all.get(i);
      // each interval's CPU share (% of one core) over its own length, a second by default
      long lengthMs =
          i > 0 ? s.epochMs() - all.get(i - 1).epochMs() : Math.round(s.elapsedSeconds() * 1000);
      if (!window.covers(s, lengthMs)) {
        continue;
      }
      for (Map.Entry<String, Double> g : s.gauges().entrySet()) {
        if (g.getKey().startsWith(prefix) && g.getKey().endsWith(".cpu") && !g.getValue().isNaN()) {
          seconds += g.getValue() / 100 * lengthMs / 1000.0;
          any = true;
        }
      }
    }
    return any ? seconds : Double.NaN;
  }

  /** The most memory the processes held together in one second of the span, in MiB. */
  static double peakRss(Side side, String prefix) {
    Window window = window(side.record());
    double peak = Double.NaN;
    for (SecondCounts s : side.record().seconds()) {
      if (!window.covers(s)) {
        continue;
      }
      double sum = 0;
      boolean any = false;
      for (Map.Entry<String, Double> g : s.gauges().entrySet()) {
        if (g.getKey().startsWith(prefix) && g.getKey().endsWith(".rss") && !g.getValue().isNaN()) {
          sum += g.getValue();
          any = true;
        }
      }
      if (any) {
        peak = Double.isNaN(peak) ? sum : Math.max(peak, sum);
      }
    }
    return peak / (1 << 20);
  }

  private static double metric(Side side, double percentile) {
    Histogram h = side.record().metrics().get("time-to-searchable");
    return h == null || h.getTotalCount() == 0
        ? Double.NaN
        : h.getValueAtPercentile(percentile) / 1000.0;
  }

  /** A read's mean ({@code percentile} < 0) or percentile of its OK answers, in ms. */
  private static double latency(Side side, String read, double percentile) {
    RequestTotals totals = side.record().requests().get(read);
    if (totals == null || totals.okCount() == 0) {
      return Double.NaN;
    }
    Histogram ok = totals.ok();
    return (percentile < 0 ? ok.getMean() : ok.getValueAtPercentile(percentile)) / 1000.0;
  }

  /** A read's answers per second over the seconds it was sent. */
  private static double rate(Side side, String read) {
    long seconds =
        side.record().seconds().stream()
            .filter(s -> s.requests().containsKey(read) && s.requests().get(read).sent() > 0)
            .count();
    RequestTotals totals = side.record().requests().get(read);
    return totals == null || seconds == 0 ? Double.NaN : (double) totals.count() / seconds;
  }

  /**
   * Whether a store's reads agreed with the generator: none of the read's answers failed (its hits
   * and buckets are checked on every one) and its count, when it has one, matched.
   *
   * @return the disagreements, empty when every read agreed
   */
  static List<String> disagreements(Side side, List<String> reads) {
    List<String> out = new ArrayList<>();
    for (String read : reads) {
      RequestTotals timed = side.record().requests().get(read);
      if (timed == null || timed.count() == 0) {
        out.add(read + ": no answer");
      } else if (timed.koCount() > 0) {
        out.add(read + ": " + timed.koCount() + " KO (" + reasons(timed) + ")");
      }
      RequestTotals total = side.record().requests().get(read + " total");
      if (total != null && (total.koCount() > 0 || total.okCount() == 0)) {
        out.add(read + " total: " + reasons(total));
      }
    }
    return out;
  }

  /** How many of the reads had their count checked after the reads. */
  static long counted(Side side, List<String> reads) {
    return reads.stream().filter(r -> side.record().requests().containsKey(r + " total")).count();
  }

  private static String reasons(RequestTotals totals) {
    return String.join("; ", totals.errors().keySet());
  }

  /** The table, aligned, with the ratio of the second store to the first. */
  String table() {
    StringBuilder out = new StringBuilder();
    int label = rows.stream().mapToInt(r -> r.label().length()).max().orElse(10) + 2;
    out.append(pad("", label));
    for (Side s : sides) {
      out.append(left(s.store(), 14));
    }
    if (sides.size() == 2) {
      out.append(left(sides.get(1).store() + " / " + sides.get(0).store(), 22));
    }
    out.append('\n');
    for (Row row : rows) {
      out.append(pad(row.label(), label));
      for (double v : row.values()) {
        out.append(left(Double.isNaN(v) ? "-" : row.format().apply(v), 14));
      }
      if (sides.size() == 2) {
        out.append(left(ratio(row.values().get(1), row.values().get(0)), 22));
      }
      out.append('\n');
    }
    return out.toString();
  }

  /** The verdict lines: per store, the reads against the generator, then its run's checks. */
  List<String> verdicts() {
    List<String> lines = new ArrayList<>();
    for (Side s : sides) {
      List<String> wrong = disagreements(s, reads);
      lines.add(
          s.store()
              + ": "
              + (wrong.isEmpty() ? "passed" : "FAILED")
              + ": the reads agree with the generator (every answer's hits and buckets, and "
              + counted(s, reads)
              + " counts checked after the reads"
              + (wrong.isEmpty() ? ")" : "): " + String.join("; ", wrong)));
      for (CheckResult r : s.report().results()) {
        lines.add(s.store() + ": " + r.message());
      }
    }
    return lines;
  }

  /** Whether every store's reads agreed and every check passed. */
  boolean passed() {
    return sides.stream()
        .allMatch(s -> disagreements(s, reads).isEmpty() && !s.report().anyFailed());
  }

  /** The table as HTML rows, for the study's page. */
  String htmlTable() {
    StringBuilder html = new StringBuilder("<table class=\"study\">\n<tr><th></th>");
    for (Side s : sides) {
      html.append("<th>").append(escape(s.store())).append("</th>");
    }
    if (sides.size() == 2) {
      html.append("<th>")
          .append(escape(sides.get(1).store() + " / " + sides.get(0).store()))
          .append("</th>");
    }
    html.append("</tr>\n");
    for (Row row : rows) {
      html.append("<tr><td>").append(escape(row.label())).append("</td>");
      for (double v : row.values()) {
        html.append("<td>").append(Double.isNaN(v) ? "-" : row.format().apply(v)).append("</td>");
      }
      if (sides.size() == 2) {
        html.append("<td>").append(ratio(row.values().get(1), row.values().get(0))).append("</td>");
      }
      html.append("</tr>\n");
    }
    return html.append("</table>\n").toString();
  }

  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static String ratio(double a, double b) {
    if (Double.isNaN(a) || Double.isNaN(b) || b == 0) {
      return "-";
    }
    return fixed(a / b, a / b >= 10 ? 1 : 2);
  }

  private static String count(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String fixed(double v, int digits) {
    return String.format(Locale.ROOT, "%,." + digits + "f", v);
  }

  private static String pad(String text, int width) {
    return text.length() >= width ? text + " " : text + " ".repeat(width - text.length());
  }

  private static String left(String text, int width) {
    return pad(text, width);
  }
}
