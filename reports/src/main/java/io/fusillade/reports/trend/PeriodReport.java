package io.fusillade.reports.trend;

import io.fusillade.record.RunStatus;
import io.fusillade.reports.runs.Delivery;
import io.fusillade.reports.runs.MetricValue;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.RunMetrics;
import io.fusillade.reports.runs.Trend;
import io.fusillade.reports.stats.Comparison;
import io.fusillade.reports.stats.Verdict;
import io.fusillade.reports.stats.changepoint.ChangePoint;
import io.fusillade.reports.stats.changepoint.ChangePoints;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code fusillade trend HISTORY --period 24h}: a history of scheduled runs cut into periods that
 * end at {@code until}, and per test the latest period ({@code [until - period, until)}) against
 * the one before it ({@code [until - 2 period, until - period)}).
 *
 * <p>A test is the workload a run ran (the file name of its {@code workload} parameter), else its
 * simulation. Per test and metric (rate, p50, p99, errors, MB/s, counters per second, end-to-end
 * p50/p99, a limit found), the verdict of {@link Comparison} over the runs of each period (Welch's
 * test and the threshold, as {@code fusillade compare}); per topic, the delivery counts summed over
 * each period; and the change points ({@link Trend}: E-divisive) over the test's whole history up
 * to {@code until} that begin in the latest period. Every verdict carries the rule that decided it.
 * A period without runs is said, never dropped; runs that did not complete are named and left out
 * of the numbers.
 *
 * @param period the length of a period
 * @param previousFrom the start of the previous period
 * @param from the start of the latest period (the end of the previous one)
 * @param until the end of the latest period, excluded
 * @param history where the runs came from, as shown (a directory or a bucket prefix)
 * @param settings the comparison's alpha and threshold
 * @param tests one per test, by name
 */
public record PeriodReport(
    Period period,
    Instant previousFrom,
    Instant from,
    Instant until,
    String history,
    Comparison.Settings settings,
    List<TestReport> tests) {

  /** Copies the list. */
  public PeriodReport {
    tests = List.copyOf(tests);
  }

  /**
   * The runs of one test in one period.
   *
   * @param from the period's start
   * @param until the period's end, excluded
   * @param runIds the runs that completed, oldest first: their numbers are the period's
   * @param notCompleted the runs that did not, as {@code id (status: reason)}
   */
  public record Window(
      Instant from, Instant until, List<String> runIds, List<String> notCompleted) {
    /** Copies the lists. */
    public Window {
      runIds = List.copyOf(runIds);
      notCompleted = List.copyOf(notCompleted);
    }

    /** Whether no run started in the period, completed or not. */
    public boolean empty() {
      return runIds.isEmpty() && notCompleted.isEmpty();
    }
  }

  /**
   * One metric, the previous period against the latest.
   *
   * @param metric its name, as {@link RunMetrics} gives it
   * @param unit its unit
   * @param previous the mean over the previous period's runs, NaN without any
   * @param current the mean over the latest period's runs, NaN without any
   * @param previousRuns how many runs of the previous period have it
   * @param currentRuns how many runs of the latest period have it
   * @param verdict better, worse or no significant change; null when a period has no value
   * @param pValue Welch's p-value, NaN when not tested
   * @param rule why: the test, its p-value against alpha and the change against the threshold
   */
  public record MetricRow(
      String metric,
      String unit,
      double previous,
      double current,
      int previousRuns,
      int currentRuns,
      Verdict verdict,
      double pValue,
      String rule) {

    /** The relative change of the means, a fraction; NaN when a period has no value. */
    public double change() {
      return current / previous - 1;
    }
  }

  /**
   * One topic's delivery counts summed over the runs of a period.
   *
   * @param runs the runs that recorded the topic's delivery
   * @param acknowledged messages the brokers acknowledged
   * @param received distinct messages the consumers got
   * @param lost acknowledged, never received
   * @param duplicated receipts of a message already received
   * @param outOfOrder first receipts after a later message of the same producer and partition
   */
  public record DeliveryTotals(
      int runs, long acknowledged, long received, long lost, long duplicated, long outOfOrder) {
    static final DeliveryTotals NONE = new DeliveryTotals(0, 0, 0, 0, 0, 0);

    DeliveryTotals plus(Delivery d) {
      return new DeliveryTotals(
          runs + 1,
          acknowledged + d.acknowledged(),
          received + d.received(),
          lost + d.lost(),
          duplicated + d.duplicated(),
          outOfOrder + d.outOfOrder());
    }

    /** Received over acknowledged, a fraction; NaN when nothing was acknowledged. */
    public double ratio() {
      return acknowledged == 0 ? Double.NaN : (double) received / acknowledged;
    }

    /** No message lost, duplicated or out of order, in a period that has runs. */
    public boolean exact() {
      return runs > 0 && lost == 0 && duplicated == 0 && outOfOrder == 0;
    }
  }

  /**
   * One topic's delivery, the previous period against the latest.
   *
   * @param topic the topic
   * @param previous the previous period's totals
   * @param current the latest period's totals
   * @param verdict worse when the latest period is not exact and the previous was (or had no runs)
   * @param rule why
   */
  public record DeliveryRow(
      String topic,
      DeliveryTotals previous,
      DeliveryTotals current,
      Verdict verdict,
      String rule) {}

  /**
   * A change point of the test's history that begins in the latest period.
   *
   * @param metric the metric
   * @param unit its unit
   * @param runId the first run of the new regime
   * @param before the mean before it (since the previous change point)
   * @param after the mean from it on
   * @param pValue its permutation p-value
   * @param verdict worse or better when beyond the threshold, else no significant change
   * @param rule why
   */
  public record ChangeRow(
      String metric,
      String unit,
      String runId,
      double before,
      double after,
      double pValue,
      Verdict verdict,
      String rule) {}

  /**
   * One test's period over period.
   *
   * @param test the test's name
   * @param previous its runs of the previous period
   * @param current its runs of the latest period
   * @param metrics per metric
   * @param deliveries per topic whose delivery was recorded
   * @param changePoints the change points that begin in the latest period
   * @param notes what could not be judged, and why
   */
  public record TestReport(
      String test,
      Window previous,
      Window current,
      List<MetricRow> metrics,
      List<DeliveryRow> deliveries,
      List<ChangeRow> changePoints,
      List<String> notes) {
    /** Copies the lists. */
    public TestReport {
      metrics = List.copyOf(metrics);
      deliveries = List.copyOf(deliveries);
      changePoints = List.copyOf(changePoints);
      notes = List.copyOf(notes);
    }

    /** The verdicts that are {@link Verdict#WORSE}: metrics, deliveries and change points. */
    public long worseCount() {
      return metrics.stream().filter(m -> m.verdict() == Verdict.WORSE).count()
          + deliveries.stream().filter(d -> d.verdict() == Verdict.WORSE).count()
          + changePoints.stream().filter(c -> c.verdict() == Verdict.WORSE).count();
    }
  }

  /** Metrics left out of the period report: the percentiles beside p50 and p99, the mean. */
  private static final Set<String> LEFT_OUT = Set.of("mean", "p90", "p99.9");

  /**
   * Builds the report.
   *
   * @param runs every run of the history, in any order; those that started at or after {@code
   *     until} are left out
   * @param period the length of a period
   * @param until the end of the latest period
   * @param history where the runs came from, as shown
   * @param settings alpha and threshold of the comparisons and of the change points' size
   * @param changePoints how change points are searched
   * @return the report
   */
  public static PeriodReport of(
      List<RunData> runs,
      Period period,
      Instant until,
      String history,
      Comparison.Settings settings,
      ChangePoints.Settings changePoints) {
    Instant from = until.minus(period.length());
    Instant previousFrom = from.minus(period.length());
    Map<String, List<RunData>> byTest = new TreeMap<>();
    for (RunData run : runs) {
      if (run.startEpochMs() < until.toEpochMilli()) {
        byTest.computeIfAbsent(test(run), t -> new ArrayList<>()).add(run);
      }
    }
    List<TestReport> tests = new ArrayList<>();
    byTest.forEach(
        (test, testRuns) -> {
          testRuns.sort(Comparator.comparingLong(RunData::startEpochMs));
          tests.add(
              test(
                  test,
                  testRuns,
                  previousFrom,
                  from,
                  until,
                  settings,
                  changePoints,
                  period.text()));
        });
    return new PeriodReport(period, previousFrom, from, until, history, settings, tests);
  }

  /**
   * The test a run belongs to: the file name of its {@code workload} parameter, else its
   * simulation.
   *
   * @param run a run
   * @return the test's name
   */
  public static String test(RunData run) {
    if (run.manifest().parameters().get("workload") instanceof String w && !w.isBlank()) {
      return w.substring(Math.max(w.lastIndexOf('/'), w.lastIndexOf('\\')) + 1);
    }
    return run.manifest().simulation();
  }

  /** Whether any verdict of any test is worse: the exit code's verdict. */
  public boolean anyWorse() {
    return tests.stream().anyMatch(t -> t.worseCount() > 0);
  }

  private static TestReport test(
      String test,
      List<RunData> runs,
      Instant previousFrom,
      Instant from,
      Instant until,
      Comparison.Settings settings,
      ChangePoints.Settings cp,
      String periodText) {
    List<RunData> previous = between(runs, previousFrom, from);
    List<RunData> current = between(runs, from, until);
    List<RunData> previousDone = completed(previous);
    List<RunData> currentDone = completed(current);
    List<String> notes = new ArrayList<>();
    Window pw = window(previousFrom, from, previous);
    Window cw = window(from, until, current);
    if (cw.empty()) {
      notes.add("no run in this period (" + periodText + " up to the end)");
    }
    if (pw.empty()) {
      notes.add("no run in the previous period: nothing to compare with");
    }
    List<MetricRow> metrics = metrics(previousDone, currentDone, settings);
    List<DeliveryRow> deliveries = deliveries(previousDone, currentDone);
    List<ChangeRow> changes = new ArrayList<>();
    List<RunData> history = completed(runs);
    if (history.size() < 2 * cp.minSegmentSize()) {
      notes.add(
          "change points: "
              + history.size()
              + " completed runs up to the end of this period, the search needs at least "
              + 2 * cp.minSegmentSize()
              + " ("
              + cp.minSegmentSize()
              + " on each side of a change)");
    } else {
      changes.addAll(changePoints(history, from, settings, cp));
    }
    return new TestReport(test, pw, cw, metrics, deliveries, changes, notes);
  }

  private static List<RunData> between(List<RunData> runs, Instant from, Instant until) {
    return runs.stream()
        .filter(
            r -> r.startEpochMs() >= from.toEpochMilli() && r.startEpochMs() < until.toEpochMilli())
        .toList();
  }

  private static List<RunData> completed(List<RunData> runs) {
    return runs.stream().filter(r -> r.status() == RunStatus.COMPLETED).toList();
  }

  private static Window window(Instant from, Instant until, List<RunData> runs) {
    List<String> done = new ArrayList<>();
    List<String> not = new ArrayList<>();
    for (RunData r : runs) {
      if (r.status() == RunStatus.COMPLETED) {
        done.add(r.manifest().runId());
      } else {
        not.add(r.manifest().runId() + " (" + r.statusText() + ")");
      }
    }
    return new Window(from, until, done, not);
  }

  private static List<MetricRow> metrics(
      List<RunData> previous, List<RunData> current, Comparison.Settings settings) {
    List<Map<String, MetricValue>> p = previous.stream().map(RunMetrics::of).toList();
    List<Map<String, MetricValue>> c = current.stream().map(RunMetrics::of).toList();
    Map<String, MetricValue> names = new LinkedHashMap<>();
    for (List<Map<String, MetricValue>> side : List.of(p, c)) {
      side.forEach(m -> m.forEach(names::putIfAbsent));
    }
    List<MetricRow> rows = new ArrayList<>();
    names.forEach(
        (name, template) -> {
          if (LEFT_OUT.contains(name)) {
            return;
          }
          double[] before = values(p, name);
          double[] after = values(c, name);
          rows.add(row(template, before, after, settings));
        });
    return rows;
  }

  private static double[] values(List<Map<String, MetricValue>> runs, String name) {
    return runs.stream()
        .filter(m -> m.containsKey(name))
        .mapToDouble(m -> m.get(name).value())
        .toArray();
  }

  private static MetricRow row(
      MetricValue template, double[] before, double[] after, Comparison.Settings settings) {
    String name = template.metric().name();
    double meanBefore = mean(before);
    double meanAfter = mean(after);
    if (before.length == 0 || after.length == 0) {
      String rule =
          "no run "
              + (after.length == 0 ? "of this period" : "of the previous period")
              + " has this metric";
      return new MetricRow(
          name,
          template.unit(),
          meanBefore,
          meanAfter,
          before.length,
          after.length,
          null,
          Double.NaN,
          rule);
    }
    Comparison comparison = Comparison.compare(template.metric(), before, after, settings);
    return new MetricRow(
        name,
        template.unit(),
        meanBefore,
        meanAfter,
        before.length,
        after.length,
        comparison.verdict(),
        comparison.test().defined() ? comparison.pValue() : Double.NaN,
        PeriodRules.welch(comparison, settings));
  }

  private static double mean(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return sum / values.length;
  }

  private static List<DeliveryRow> deliveries(List<RunData> previous, List<RunData> current) {
    Map<String, DeliveryTotals> before = totals(previous);
    Map<String, DeliveryTotals> after = totals(current);
    Set<String> topics = new LinkedHashSet<>(before.keySet());
    topics.addAll(after.keySet());
    List<DeliveryRow> rows = new ArrayList<>();
    for (String topic : topics) {
      DeliveryTotals b = before.getOrDefault(topic, DeliveryTotals.NONE);
      DeliveryTotals a = after.getOrDefault(topic, DeliveryTotals.NONE);
      Verdict verdict;
      if (a.runs() > 0 && !a.exact() && (b.exact() || b.runs() == 0)) {
        verdict = Verdict.WORSE;
      } else if (a.exact() && b.runs() > 0 && !b.exact()) {
        verdict = Verdict.BETTER;
      } else {
        verdict = Verdict.NO_SIGNIFICANT_CHANGE;
      }
      rows.add(new DeliveryRow(topic, b, a, verdict, PeriodRules.delivery(b, a, verdict)));
    }
    return rows;
  }

  private static Map<String, DeliveryTotals> totals(List<RunData> runs) {
    Map<String, DeliveryTotals> totals = new TreeMap<>();
    for (RunData run : runs) {
      Delivery.of(run)
          .forEach(
              (topic, d) ->
                  totals.put(topic, totals.getOrDefault(topic, DeliveryTotals.NONE).plus(d)));
    }
    return totals;
  }

  private static List<ChangeRow> changePoints(
      List<RunData> history, Instant from, Comparison.Settings settings, ChangePoints.Settings cp) {
    Trend trend = Trend.of(history, cp);
    List<ChangeRow> rows = new ArrayList<>();
    for (Trend.Series s : trend.series()) {
      String name = s.metric().metric().name();
      if (LEFT_OUT.contains(name)) {
        continue;
      }
      for (ChangePoint c : s.changes().points()) {
        if (history.get(c.index()).startEpochMs() < from.toEpochMilli()) {
          continue; // news of an earlier period
        }
        double change = c.relativeChange();
        boolean beyond = Math.abs(change) > settings.threshold(); // ∞ (from 0) is beyond
        Verdict verdict =
            !beyond
                ? Verdict.NO_SIGNIFICANT_CHANGE
                : s.metric().metric().direction().isBad(change) ? Verdict.WORSE : Verdict.BETTER;
        rows.add(
            new ChangeRow(
                name,
                s.metric().unit(),
                trend.runIds().get(c.index()),
                c.meanBefore(),
                c.meanAfter(),
                c.pValue(),
                verdict,
                PeriodRules.changePoint(
                    c,
                    cp.alpha(),
                    s.changes().settings().alpha(),
                    trend.series().size(),
                    settings,
                    verdict)));
      }
    }
    return rows;
  }
}
