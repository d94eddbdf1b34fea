package io.fusillade.reports.trend;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.stats.Verdict;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A {@link PeriodReport} as Markdown (the console, the {@code .md} file, the chat message) and as
 * JSON (the {@code .json} file, for other tools). One line per verdict, the numbers of both periods
 * and the rule in it, so that a line copied alone into a chat still says what was decided and why.
 */
public final class PeriodText {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** How the verdict of the whole report is decided. */
  static final String OVERALL_RULE =
      "a metric is worse when Welch's t-test finds the change significant and beyond the"
          + " threshold in its bad direction; a delivery when it stops being exact; a change point"
          + " when it begins in this period, beyond the threshold, the bad way";

  private PeriodText() {}

  /**
   * The report's headline verdict.
   *
   * @param report the report
   * @return {@code WORSE: ...} or {@code nothing worse ...}, with the rule
   */
  public static String verdict(PeriodReport report) {
    long worse = report.tests().stream().mapToLong(PeriodReport.TestReport::worseCount).sum();
    long tests = report.tests().stream().filter(t -> t.worseCount() > 0).count();
    String head =
        worse > 0
            ? "WORSE: "
                + worse
                + (worse == 1 ? " verdict" : " verdicts")
                + " worse in "
                + tests
                + " of "
                + report.tests().size()
                + (report.tests().size() == 1 ? " test" : " tests")
            : "nothing worse in " + report.tests().size() + " tests";
    return head + " (" + OVERALL_RULE + ")";
  }

  /**
   * The first line: what is compared with what.
   *
   * @param report the report
   * @return the title
   */
  public static String title(PeriodReport report) {
    return "Fusillade period report: "
        + report.period()
        + " to "
        + time(report.until())
        + " UTC against the "
        + report.period()
        + " before";
  }

  /**
   * The whole report as Markdown.
   *
   * @param report the report
   * @return Markdown text, lines ending in {@code \n}
   */
  public static String markdown(PeriodReport report) {
    StringBuilder out = new StringBuilder();
    out.append("# ").append(title(report)).append("\n\n");
    out.append("This period: ")
        .append(range(report.from(), report.until()))
        .append("; the previous: ")
        .append(range(report.previousFrom(), report.from()))
        .append(". History: ")
        .append(report.history())
        .append(".\n\n");
    out.append("Verdict: ").append(verdict(report)).append("\n");
    if (report.tests().isEmpty()) {
      out.append("\nNo run in the history started before the end of this period.\n");
    }
    for (PeriodReport.TestReport t : report.tests()) {
      out.append("\n").append(test(t));
    }
    return out.toString();
  }

  /**
   * One test's section.
   *
   * @param t the test
   * @return its Markdown, from its heading on
   */
  public static String test(PeriodReport.TestReport t) {
    StringBuilder out = new StringBuilder();
    out.append("## ").append(t.test()).append("\n\n");
    out.append("Runs: ")
        .append(runs(t.current()))
        .append(" this period, ")
        .append(runs(t.previous()))
        .append(" the previous one.\n");
    for (String n : t.current().notCompleted()) {
      out.append("- not completed, left out of the numbers: ").append(n).append("\n");
    }
    for (String n : t.previous().notCompleted()) {
      out.append("- not completed (previous period), left out: ").append(n).append("\n");
    }
    for (PeriodReport.MetricRow m : t.metrics()) {
      out.append("- ")
          .append(m.metric())
          .append(": ")
          .append(Numbers.number(m.previous()))
          .append(" → ")
          .append(Numbers.number(m.current()))
          .append(' ')
          .append(m.unit())
          .append(" (")
          .append(Numbers.signedPercent(m.change()))
          .append("): ")
          .append(word(m.verdict()))
          .append(" — ")
          .append(m.rule())
          .append("\n");
    }
    for (PeriodReport.DeliveryRow d : t.deliveries()) {
      PeriodReport.DeliveryTotals b = d.previous();
      PeriodReport.DeliveryTotals a = d.current();
      out.append("- delivery [")
          .append(d.topic())
          .append("]: acknowledged ")
          .append(Numbers.count(b.acknowledged()))
          .append(" → ")
          .append(Numbers.count(a.acknowledged()))
          .append(", received ")
          .append(ratio(b))
          .append(" → ")
          .append(ratio(a))
          .append(", lost ")
          .append(Numbers.count(b.lost()))
          .append(" → ")
          .append(Numbers.count(a.lost()))
          .append(", duplicated ")
          .append(Numbers.count(b.duplicated()))
          .append(" → ")
          .append(Numbers.count(a.duplicated()))
          .append(", out of order ")
          .append(Numbers.count(b.outOfOrder()))
          .append(" → ")
          .append(Numbers.count(a.outOfOrder()))
          .append(": ")
          .append(word(d.verdict()))
          .append(" — ")
          .append(d.rule())
          .append("\n");
    }
    for (PeriodReport.ChangeRow c : t.changePoints()) {
      out.append("- change point in ")
          .append(c.metric())
          .append(" from run ")
          .append(c.runId())
          .append(": ")
          .append(Numbers.number(c.before()))
          .append(" → ")
          .append(Numbers.number(c.after()))
          .append(' ')
          .append(c.unit())
          .append(": ")
          .append(word(c.verdict()))
          .append(" — ")
          .append(c.rule())
          .append("\n");
    }
    if (t.changePoints().isEmpty() && t.notes().stream().noneMatch(n -> n.startsWith("change"))) {
      out.append("- change points: none begins in this period\n");
    }
    for (String n : t.notes()) {
      out.append("- ").append(n).append("\n");
    }
    return out.toString();
  }

  /**
   * The report as JSON.
   *
   * @param report the report
   * @return indented JSON
   */
  public static String json(PeriodReport report) {
    ObjectNode root = JSON.createObjectNode();
    root.put("period", report.period().text());
    root.put("previousFrom", report.previousFrom().toString());
    root.put("from", report.from().toString());
    root.put("until", report.until().toString());
    root.put("history", report.history());
    root.put("alpha", report.settings().alpha());
    root.put("threshold", report.settings().threshold());
    root.put("worse", report.anyWorse());
    root.put("verdict", verdict(report));
    ArrayNode tests = root.putArray("tests");
    for (PeriodReport.TestReport t : report.tests()) {
      ObjectNode test = tests.addObject();
      test.put("test", t.test());
      window(test.putObject("previous"), t.previous());
      window(test.putObject("current"), t.current());
      ArrayNode metrics = test.putArray("metrics");
      for (PeriodReport.MetricRow m : t.metrics()) {
        ObjectNode o = metrics.addObject();
        o.put("metric", m.metric());
        o.put("unit", m.unit());
        number(o, "previous", m.previous());
        number(o, "current", m.current());
        number(o, "change", m.change());
        o.put("previousRuns", m.previousRuns());
        o.put("currentRuns", m.currentRuns());
        number(o, "p", m.pValue());
        o.put("verdict", m.verdict() == null ? "not compared" : m.verdict().label());
        o.put("rule", m.rule());
      }
      ArrayNode deliveries = test.putArray("delivery");
      for (PeriodReport.DeliveryRow d : t.deliveries()) {
        ObjectNode o = deliveries.addObject();
        o.put("topic", d.topic());
        totals(o.putObject("previous"), d.previous());
        totals(o.putObject("current"), d.current());
        o.put("verdict", d.verdict().label());
        o.put("rule", d.rule());
      }
      ArrayNode changes = test.putArray("changePoints");
      for (PeriodReport.ChangeRow c : t.changePoints()) {
        ObjectNode o = changes.addObject();
        o.put("metric", c.metric());
        o.put("unit", c.unit());
        o.put("run", c.runId());
        number(o, "before", c.before());
        number(o, "after", c.after());
        number(o, "p", c.pValue());
        o.put("verdict", c.verdict().label());
        o.put("rule", c.rule());
      }
      ArrayNode notes = test.putArray("notes");
      t.notes().forEach(notes::add);
    }
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void window(ObjectNode o, PeriodReport.Window w) {
    o.put("from", w.from().toString());
    o.put("until", w.until().toString());
    ArrayNode runs = o.putArray("runs");
    w.runIds().forEach(runs::add);
    ArrayNode not = o.putArray("notCompleted");
    w.notCompleted().forEach(not::add);
  }

  private static void totals(ObjectNode o, PeriodReport.DeliveryTotals t) {
    o.put("runs", t.runs());
    o.put("acknowledged", t.acknowledged());
    o.put("received", t.received());
    o.put("lost", t.lost());
    o.put("duplicated", t.duplicated());
    o.put("outOfOrder", t.outOfOrder());
    number(o, "receivedRatio", t.ratio());
    o.put("exact", t.exact());
  }

  private static void number(ObjectNode o, String field, double value) {
    if (Double.isFinite(value)) {
      o.put(field, value);
    } else {
      o.putNull(field);
    }
  }

  private static String ratio(PeriodReport.DeliveryTotals t) {
    double r = t.ratio();
    return Double.isNaN(r) ? "-" : String.format(java.util.Locale.ROOT, "%.4f%%", 100 * r);
  }

  private static String runs(PeriodReport.Window w) {
    int n = w.runIds().size();
    if (w.empty()) {
      return "no run";
    }
    String done = n + (n == 1 ? " run" : " runs");
    return w.notCompleted().isEmpty()
        ? done
        : done + " (+" + w.notCompleted().size() + " not completed)";
  }

  private static String word(Verdict v) {
    if (v == null) {
      return "not compared";
    }
    return v == Verdict.WORSE ? "WORSE" : v.label();
  }

  private static String range(Instant from, Instant until) {
    return time(from) + " – " + time(until) + " UTC";
  }

  static String time(Instant t) {
    return TIME.format(t);
  }
}
