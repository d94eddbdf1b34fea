package io.fusillade.reports.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fusillade.FusilladeException;
import io.fusillade.record.AtomicFile;
import io.fusillade.record.FailureClass;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunStatus;
import io.fusillade.reports.checks.Check;
import io.fusillade.reports.checks.CheckParser;
import io.fusillade.reports.checks.CheckResult;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.html.Html;
import io.fusillade.reports.html.ReportPage;
import io.fusillade.reports.junit.JUnitXml;
import io.fusillade.reports.runs.InjectionPeriods;
import io.fusillade.reports.runs.MetricValue;
import io.fusillade.reports.runs.RequestSummary;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.RunMetrics;
import io.fusillade.reports.runs.TopicResults;
import io.fusillade.reports.summary.SummaryTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * {@code fusillade report}: one run (one or several injectors) with its checks evaluated, written
 * as {@code index.html} (with its stylesheet {@code report.css} beside it), {@code summary.json}
 * and {@code junit.xml}.
 *
 * <p>The checks are those declared in {@code run.json} followed by the extra ones given, each once.
 * An implicit first check, {@value #RUN_COMPLETED}, fails when the run did not complete (status
 * failed, aborted or incomplete: crashed, sent no request, stopped, killed), with the status and
 * its reason: a build should not pass on half a test.
 *
 * @param run the run
 * @param results one per check, {@value #RUN_COMPLETED} first
 */
public record Report(RunData run, List<CheckResult> results) {
  /** The implicit check that the run ended normally. */
  public static final String RUN_COMPLETED = "run completed";

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /**
   * Reads the run and evaluates its checks.
   *
   * @param directories one run directory per injector of the same run
   * @param extraChecks checks given on the command line
   * @return the report
   * @throws FusilladeException on an unreadable record or a check with bad syntax
   */
  public static Report create(List<Path> directories, List<String> extraChecks) {
    RunData run = RunData.load(directories);
    LinkedHashSet<String> texts = new LinkedHashSet<>(run.declaredChecks());
    texts.addAll(extraChecks);
    List<Check> checks = CheckParser.parseAll(new ArrayList<>(texts));
    List<CheckResult> results = new ArrayList<>();
    boolean completed = run.status() == RunStatus.COMPLETED;
    results.add(
        CheckResult.of(
            RUN_COMPLETED,
            completed,
            "status " + run.statusText(),
            "status "
                + run.statusText()
                + (completed
                    ? ": the run ended normally and its record was closed"
                    : "; only a completed run passes (failed, aborted and incomplete ones fail)")));
    for (Check check : checks) {
      results.add(check.evaluate(run));
    }
    return new Report(run, List.copyOf(results));
  }

  /**
   * Whether any check failed.
   *
   * @return true when the exit code should be 3
   */
  public boolean anyFailed() {
    return results.stream().anyMatch(r -> !r.passed());
  }

  /** The report's title: the run id(s). */
  public String title() {
    List<String> ids = run.injectors().stream().map(r -> r.manifest().runId()).toList();
    return "Fusillade report: "
        + ids.get(0)
        + (ids.size() > 1 ? " (+" + (ids.size() - 1) + " injectors)" : "");
  }

  /**
   * Writes {@code index.html}, its stylesheet {@code report.css}, {@code summary.json} and {@code
   * junit.xml}.
   *
   * @param output the directory, created if needed
   * @throws FusilladeException when it cannot be written
   */
  public void write(Path output) {
    // Each file whole or not at all (a full disk): never a 0-byte index.html.
    Path writing = output;
    try {
      Files.createDirectories(output);
      writing = output.resolve("index.html");
      AtomicFile.write(writing, ReportPage.render(run, results, title(), output));
      writing = output.resolve(Html.STYLESHEET_FILE);
      Html.writeStylesheet(output);
      writing = output.resolve("summary.json");
      AtomicFile.write(writing, JSON.writeValueAsBytes(summaryJson()));
      writing = output.resolve("junit.xml");
      AtomicFile.write(writing, junitXml());
    } catch (IOException e) {
      throw new FusilladeException("no report written: " + AtomicFile.failure(writing, e), e);
    }
  }

  /** The JUnit XML document. */
  public String junitXml() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("runId", run.manifest().runId());
    properties.put("simulation", run.manifest().simulation());
    properties.put("status", run.status().jsonName());
    if (run.statusReason() != null) {
      properties.put("statusReason", run.statusReason());
    }
    run.manifest().parameters().forEach((k, v) -> properties.put(k, String.valueOf(v)));
    String simulation = run.manifest().simulation();
    String simple = simulation.substring(simulation.lastIndexOf('.') + 1);
    return JUnitXml.render(
        "fusillade." + (simple.isEmpty() ? "run" : simple),
        run.startEpochMs(),
        run.durationSeconds(),
        properties,
        results);
  }

  /** {@code summary.json}. */
  public ObjectNode summaryJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("runId", run.manifest().runId());
    root.put("simulation", run.manifest().simulation());
    root.put("status", run.status().jsonName());
    if (run.statusReason() != null) {
      root.put("statusReason", run.statusReason());
    }
    root.put("incomplete", run.isPartial());
    root.put(
        "truncatedLines",
        run.injectors().stream().mapToInt(io.fusillade.record.RunRecord::truncatedLines).sum());
    root.put("start", Instant.ofEpochMilli(run.startEpochMs()).toString());
    root.put("durationSeconds", run.durationSeconds());
    ArrayNode injectors = root.putArray("injectors");
    for (RunRecord r : run.injectors()) {
      injectors.add(r.directory().toAbsolutePath().toString());
    }
    root.set("parameters", JSON.valueToTree(run.manifest().parameters()));
    root.set("flags", JSON.valueToTree(run.flags()));
    root.put("passed", !anyFailed());
    root.set("checks", JSON.valueToTree(results));
    ArrayNode requests = root.putArray("requests");
    Map<FailureClass, Long> koByClass = new EnumMap<>(FailureClass.counts(Map.of()));
    for (RequestSummary r : run.summaries()) {
      ObjectNode request = JSON.valueToTree(r);
      ObjectNode classes = request.putObject("koByClass");
      FailureClass.counts(r.errors())
          .forEach(
              (c, n) -> {
                classes.put(c.label(), n);
                koByClass.merge(c, n, Long::sum);
              });
      requests.add(request);
    }
    // who failed, over all requests: server, network, injector (see FailureClass)
    ObjectNode classes = root.putObject("koByClass");
    koByClass.forEach((c, n) -> classes.put(c.label(), n));
    root.set("topics", JSON.valueToTree(TopicResults.toMap(TopicResults.of(run))));
    // every other distribution the console prints: injector lag, e2e, time-to-searchable...
    ObjectNode distributions = root.putObject("distributions");
    for (io.fusillade.reports.runs.LatencySummary s :
        io.fusillade.reports.runs.LatencySummary.all(run)) {
      distributions.set(s.name(), JSON.valueToTree(s.toMap()));
    }
    // SQL retries, failures after the last try, late requests (pgbench's counts)
    io.fusillade.reports.runs.SqlRetries.of(run)
        .ifPresent(retries -> root.set("sqlRetries", JSON.valueToTree(retries.toMap())));
    // the limit search: verdict, rate found, sustained, one-line summary and every step
    io.fusillade.reports.runs.LimitResults.of(run)
        .ifPresent(result -> root.set("limit", JSON.valueToTree(result.toMap())));
    // an adaptive run: the settled rate, per minute, and the curve (io.fusillade.limit)
    io.fusillade.reports.runs.AdaptiveResults.of(run)
        .ifPresent(result -> root.set("adaptive", JSON.valueToTree(result.toMap())));
    // node down and up (events.jsonl), every one: seconds from the start, kind, node, detail
    ArrayNode events = root.putArray("events");
    for (io.fusillade.reports.runs.EventRows e : io.fusillade.reports.runs.EventRows.of(run)) {
      ObjectNode event = events.addObject();
      event.put("atSeconds", Math.round(e.atSeconds() * 1000) / 1000.0);
      event.put("kind", e.kind());
      event.put("target", e.target());
      event.put("detail", e.detail());
    }
    // scheduled faults: label, from, to, outcome and the good requests' recovery (FaultWindows)
    ArrayNode faults = root.putArray("faults");
    for (io.fusillade.reports.runs.FaultWindows f :
        io.fusillade.reports.runs.FaultWindows.of(run)) {
      ObjectNode fault = faults.addObject();
      fault.put("fault", f.label());
      fault.put("fromSeconds", Math.round(f.fromSeconds() * 1000) / 1000.0);
      fault.put("toSeconds", Math.round(f.toSeconds() * 1000) / 1000.0);
      fault.put("outcome", f.outcome());
      if (f.failoverSeconds().isPresent()) {
        fault.put("stalledFromSeconds", Math.round(f.stalledFromSeconds() * 1000) / 1000.0);
        fault.put("stalledToSeconds", Math.round(f.stalledToSeconds() * 1000) / 1000.0);
        fault.put("failoverSeconds", Math.round(f.failoverSeconds().getAsDouble() * 1000) / 1000.0);
      } else {
        fault.putNull("failoverSeconds");
      }
      if (f.recovery().isPresent()) {
        fault.put("recoverySeconds", Math.round(f.recoverySeconds() * 1000) / 1000.0);
      } else {
        fault.putNull("recoverySeconds");
        fault.put("recoveryNote", f.recoveryNote());
      }
    }
    // requests injected to fail: when, and the good requests before, during and after them
    List<InjectionPeriods> periods = InjectionPeriods.of(run);
    InjectionPeriods.during(periods)
        .ifPresent(during -> root.set("injection", injectionJson(during, periods)));
    ObjectNode metrics = root.putObject("metrics");
    for (Map.Entry<String, MetricValue> m : RunMetrics.of(run).entrySet()) {
      ObjectNode node = metrics.putObject(m.getKey());
      node.put("value", m.getValue().value());
      node.put("unit", m.getValue().unit());
    }
    return root;
  }

  /**
   * {@code summary.json}'s {@code injection}: {@code fromSeconds}, {@code toSeconds} and one entry
   * per {@link InjectionPeriods} ({@code period}, its seconds, {@code requests}, {@code ko}, {@code
   * koPercent}, {@code p50Ms}, {@code p99Ms}; null for a value that has no number).
   */
  private static ObjectNode injectionJson(InjectionPeriods during, List<InjectionPeriods> periods) {
    ObjectNode injection = JSON.createObjectNode();
    injection.put("fromSeconds", Math.round(during.fromSeconds() * 1000) / 1000.0);
    injection.put("toSeconds", Math.round(during.toSeconds() * 1000) / 1000.0);
    ArrayNode rows = injection.putArray("periods");
    for (InjectionPeriods p : periods) {
      ObjectNode row = rows.addObject();
      row.put("period", p.period());
      row.put("fromSeconds", Math.round(p.fromSeconds() * 1000) / 1000.0);
      row.put("toSeconds", Math.round(p.toSeconds() * 1000) / 1000.0);
      row.put("requests", p.requests());
      row.put("ko", p.ko());
      putNumber(row, "koPercent", p.koPercent());
      putNumber(row, "p50Ms", p.p50Ms());
      putNumber(row, "p99Ms", p.p99Ms());
    }
    return injection;
  }

  /** A number, or null when it is not finite (JSON has no NaN). */
  private static void putNumber(ObjectNode node, String field, double value) {
    if (Double.isFinite(value)) {
      node.put(field, value);
    } else {
      node.putNull(field);
    }
  }

  /**
   * The console text: the title and status, the run's table ({@link SummaryTable#body}: the same as
   * {@code fusillade summary}), then one line per check.
   */
  public String consoleText() {
    StringBuilder out = new StringBuilder();
    String nl = System.lineSeparator();
    out.append(title())
        .append(": ")
        .append(run.status().jsonName())
        .append(", ")
        .append(Numbers.number(run.durationSeconds()))
        .append(" s")
        .append(nl);
    if (run.isPartial()) {
      out.append(run.status().name())
          .append(run.statusReason() == null ? "" : ": " + run.statusReason())
          .append(" — the record covers the run until it stopped")
          .append(nl);
    }
    out.append(SummaryTable.body(run));
    for (CheckResult r : results) {
      out.append(r.message()).append(nl);
    }
    return out.toString();
  }
}
