package io.fusillade.reports.summary;

import io.fusillade.record.FailureClass;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunStatus;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.Delivery;
import io.fusillade.reports.runs.EventRows;
import io.fusillade.reports.runs.InjectionPeriods;
import io.fusillade.reports.runs.LatencySummary;
import io.fusillade.reports.runs.LimitResults;
import io.fusillade.reports.runs.RequestSummary;
import io.fusillade.reports.runs.RunData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The console text of one run: the one table that {@code fusillade summary}, {@code fusillade
 * report} and the end of a Gatling run print, so the same run always shows the same numbers.
 *
 * <p>{@link #body} is what they share: per request name count, OK, KO, steady rate (see {@link
 * io.fusillade.reports.runs.SteadyRate}) and latency p50, p90, p95, p99, p99.9 and max, in
 * milliseconds, over OK and KO requests; the errors by reason; the good requests before, during and
 * after requests injected to fail; the run's other distributions (injector lag, end-to-end
 * latency...); each topic's delivery counts; the run's warnings. {@link #render} adds the line that
 * names the run, for {@code fusillade summary}; the report adds its title and its checks.
 */
public final class SummaryTable {
  /**
   * The columns of the request table. Latency percentiles from the median to the tail that SLOs
   * name (p90, p95, p99) and the outliers (p99.9, max); about 100 characters wide with a long
   * request name, so one line on a terminal.
   */
  static final String[] HEADER = {
    "request",
    "count",
    "OK",
    "KO",
    "rate/s",
    "p50 ms",
    "p90 ms",
    "p95 ms",
    "p99 ms",
    "p99.9 ms",
    "max ms"
  };

  private SummaryTable() {}

  /**
   * {@code fusillade summary}: a line naming the run and its status, then the {@link #body}.
   *
   * @param run the run
   * @return the text, one line per row
   */
  public static String render(RunData run) {
    var manifest = run.manifest();
    return String.format(
            Locale.ROOT,
            "Run %s (%s): %s, %.1f s%n",
            manifest.runId(),
            manifest.simulation(),
            describe(run.status())
                + (run.statusReason() == null ? "" : " (" + run.statusReason() + ")"),
            run.durationSeconds())
        + body(run);
  }

  /**
   * The part every console view of a run shares: the request table, the errors by reason, the other
   * distributions, the warnings, and how many unfinished lines were skipped.
   *
   * @param run the run
   * @return the text, one line per row
   */
  public static String body(RunData run) {
    StringBuilder out = new StringBuilder();
    String nl = System.lineSeparator();
    out.append(requests(run.summaries()));
    out.append(errors(run.summaries()));
    // SQL retries, failures after the last try, late requests (pgbench's lines)
    io.fusillade.reports.runs.SqlRetries.of(run).ifPresent(retries -> out.append(retries.lines()));
    out.append(injection(InjectionPeriods.of(run)));
    LimitResults.of(run).ifPresent(result -> out.append(LimitResults.table(result)));
    io.fusillade.reports.runs.AdaptiveResults.of(run)
        .ifPresent(
            result ->
                out.append("Adaptive: ").append(result.describe()).append(System.lineSeparator()));
    out.append(
        events(
            EventRows.of(run).stream().filter(e -> !LimitResults.isLimitEvent(e.kind())).toList()));
    out.append(metrics(run));
    out.append(deliveries(Delivery.of(run)));
    for (String flag : run.flags()) {
      out.append("WARNING: ").append(flag).append(nl);
    }
    int truncated = run.injectors().stream().mapToInt(RunRecord::truncatedLines).sum();
    if (truncated > 0) {
      out.append(
          String.format(
              Locale.ROOT,
              "(%d unfinished line(s) at the end of the record were skipped)%n",
              truncated));
    }
    return out.toString();
  }

  /**
   * The line that says when requests injected to fail were sent, and the good requests' p99 and KO
   * share before, during and after them ("{@code injected requests from 20 s to 30 s; the
   * workload's own: before p99 1.20 ms, 0.0% KO; during ...}"); empty when there were none, or they
   * span the whole run (the request table already tells).
   *
   * @param periods the run's {@link InjectionPeriods}
   * @return one line, or empty
   */
  public static String injection(List<InjectionPeriods> periods) {
    if (!InjectionPeriods.windowed(periods)) {
      return "";
    }
    InjectionPeriods during = InjectionPeriods.during(periods).orElseThrow();
    StringBuilder out =
        new StringBuilder("injected requests from ")
            .append(seconds(during.fromSeconds()))
            .append(" s to ")
            .append(seconds(during.toSeconds()))
            .append(" s; the workload's own:");
    String separator = " ";
    for (InjectionPeriods p : periods) {
      out.append(separator)
          .append(p.period())
          .append(" p99 ")
          .append(Numbers.number(p.p99Ms()))
          .append(" ms, ")
          .append(Numbers.percent(p.koPercent() / 100))
          .append(" KO");
      separator = "; ";
    }
    return out.append(System.lineSeparator()).toString();
  }

  /** 20 as "20", 30.5 as "30.5": seconds of a whole-second record without decimals. */
  private static String seconds(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Numbers.number(value);
  }

  /** The most event lines the console shows; the rest are counted. */
  static final int MAX_EVENT_LINES = 20;

  /**
   * The run's events, one short line each ("{@code +11.0 s node-down 127.0.0.1:5432 connection
   * refused: 127.0.0.1:5432}"), at most {@value #MAX_EVENT_LINES}; empty when there are none.
   *
   * @param events the run's events in time order
   * @return the text, one line per event
   */
  public static String events(List<EventRows> events) {
    if (events.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    String nl = System.lineSeparator();
    out.append("Events:").append(nl);
    int kindWidth = events.stream().mapToInt(e -> e.kind().length()).max().orElse(0);
    int targetWidth = events.stream().mapToInt(e -> e.target().length()).max().orElse(0);
    for (EventRows e : events.subList(0, Math.min(events.size(), MAX_EVENT_LINES))) {
      out.append(
              String.format(
                      Locale.ROOT,
                      "  %8s  %-" + kindWidth + "s  %-" + targetWidth + "s  %s",
                      e.at(),
                      e.kind(),
                      e.target(),
                      e.detail())
                  .stripTrailing())
          .append(nl);
    }
    if (events.size() > MAX_EVENT_LINES) {
      out.append("  (")
          .append(events.size() - MAX_EVENT_LINES)
          .append(" more in events.jsonl)")
          .append(nl);
    }
    return out.toString();
  }

  /**
   * The errors by reason, grouped by who failed ({@link FailureClass}): a line with the KO count of
   * each class ("KO by class: server 1, network 991, injector 0"), then, for each class that has
   * any, its reasons per request name, most frequent first. Empty when nothing failed.
   *
   * @param summaries the request names' summaries
   * @return the text, one line per row
   */
  public static String errors(List<RequestSummary> summaries) {
    Map<FailureClass, List<String[]>> byClass = new EnumMap<>(FailureClass.class);
    Map<FailureClass, Long> totals = new EnumMap<>(FailureClass.class);
    for (FailureClass c : FailureClass.values()) {
      byClass.put(c, new ArrayList<>());
      totals.put(c, 0L);
    }
    for (RequestSummary r : summaries) {
      for (Map.Entry<String, Long> error : r.errors().entrySet()) {
        FailureClass c = FailureClass.of(error.getKey());
        byClass
            .get(c)
            .add(new String[] {r.name(), error.getKey(), Long.toString(error.getValue())});
        totals.merge(c, error.getValue(), Long::sum);
      }
    }
    if (totals.values().stream().allMatch(n -> n == 0)) {
      return "";
    }
    StringBuilder out = new StringBuilder("KO by class:");
    String separator = " ";
    for (FailureClass c : FailureClass.values()) {
      out.append(separator).append(c.label()).append(' ').append(totals.get(c));
      separator = ", ";
    }
    out.append(System.lineSeparator());
    for (FailureClass c : FailureClass.values()) {
      List<String[]> rows = byClass.get(c);
      if (rows.isEmpty()) {
        continue;
      }
      rows.sort(Comparator.comparingLong((String[] e) -> -Long.parseLong(e[2])));
      out.append("  ").append(c.label()).append(':').append(System.lineSeparator());
      for (String[] e : rows) {
        out.append(String.format(Locale.ROOT, "    KO %s: %s × %s%n", e[0], e[2], e[1]));
      }
    }
    return out.toString();
  }

  /**
   * The request table alone.
   *
   * @param requests one row each
   * @return the table, the header first
   */
  public static String requests(List<RequestSummary> requests) {
    List<String[]> rows = new ArrayList<>();
    rows.add(HEADER);
    for (RequestSummary r : requests) {
      rows.add(
          new String[] {
            r.name(),
            Long.toString(r.count()),
            Long.toString(r.ok()),
            Long.toString(r.ko()),
            Numbers.number(r.rate()),
            Numbers.number(r.p50Ms()),
            Numbers.number(r.p90Ms()),
            Numbers.number(r.p95Ms()),
            Numbers.number(r.p99Ms()),
            Numbers.number(r.p999Ms()),
            Numbers.number(r.maxMs())
          });
    }
    return Numbers.table(rows);
  }

  /**
   * The run's other distributions (injector lag, end-to-end latency, time-to-searchable, per-node
   * latency) as a second table, in milliseconds; empty when there are none.
   */
  private static String metrics(RunData run) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"metric", "count", "p50 ms", "p99 ms", "p99.9 ms", "max ms"});
    for (LatencySummary s : LatencySummary.all(run)) {
      rows.add(
          new String[] {
            s.name(),
            Long.toString(s.count()),
            Numbers.number(s.p50Ms()),
            Numbers.number(s.p99Ms()),
            Numbers.number(s.p999Ms()),
            Numbers.number(s.maxMs())
          });
    }
    return rows.size() > 1 ? Numbers.table(rows) : "";
  }

  /**
   * One line per topic with delivery counts: {@code topic events: 2000 acknowledged, 2000 received,
   * 0 lost, 0 duplicated, 0 out of order (exact)}; for a run stopped before the drain, {@code topic
   * events: 817 acknowledged, 816 received, not verified: the run stopped before the drain; 1
   * acknowledged message unread}.
   */
  static String deliveries(Map<String, Delivery> deliveries) {
    StringBuilder out = new StringBuilder();
    for (Delivery d : deliveries.values()) {
      if (!d.verified()) {
        // a stopped run: what was not read at the stop is unread, not lost
        out.append(
            String.format(
                Locale.ROOT,
                "topic %s: %d acknowledged, %d received, %s%n",
                d.topic(),
                d.acknowledged(),
                d.received(),
                d.notVerifiedLine()));
        continue;
      }
      out.append(
          String.format(
              Locale.ROOT,
              "topic %s: %d acknowledged, %d received, %d lost, %d duplicated, %d out of order"
                  + " (%s)%n",
              d.topic(),
              d.acknowledged(),
              d.received(),
              d.lost(),
              d.duplicated(),
              d.outOfOrder(),
              d.exact() ? "exact" : "NOT exact"));
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
}
