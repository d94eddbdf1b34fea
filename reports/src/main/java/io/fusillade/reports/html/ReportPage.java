package io.fusillade.reports.html;

import static io.fusillade.reports.html.Html.escape;

import io.fusillade.reports.checks.CheckResult;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.RequestSummary;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.TopicResults;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The HTML report of one run ({@code index.html}): status, flags, checks, per request name counts
 * and latency percentiles, errors by reason, the topics ({@link TopicSection}: end-to-end latency
 * and delivery), time series charts (rate, latency, end-to-end latency, errors, injector lag,
 * consumer lag, system and process metrics), parameters and health. One self-contained file.
 */
public final class ReportPage {
  private static final int MAX_LINES = 10;

  private ReportPage() {}

  /**
   * Renders the page.
   *
   * @param run the run
   * @param checks the checks' outcomes
   * @param title the page title
   * @return the HTML
   */
  public static String render(RunData run, List<CheckResult> checks, String title) {
    StringBuilder h = new StringBuilder(64 * 1024);
    var manifest = run.manifest();
    h.append(Html.head(title));
    h.append("<h1>").append(escape(title)).append("</h1>\n<p>");
    h.append("<b>").append(escape(manifest.simulation())).append("</b> · started ");
    h.append(escape(Instant.ofEpochMilli(run.startEpochMs()).toString()));
    h.append(" · ").append(Numbers.number(run.durationSeconds())).append(" s · status <b>");
    h.append(escape(run.status().jsonName())).append("</b> · ");
    h.append(run.injectors().size())
        .append(run.injectors().size() == 1 ? " injector" : " injectors");
    h.append("</p>\n");
    if (run.isPartial()) {
      h.append("<div class=\"banner incomplete\" id=\"incomplete\">INCOMPLETE: the run ")
          .append(
              switch (run.status()) {
                case INCOMPLETE -> "was killed";
                case ABORTED -> "was stopped before its end";
                case FAILED -> "failed";
                default -> "had not ended";
              })
          .append(run.statusReason() == null ? "" : " (" + escape(run.statusReason()) + ")")
          .append("; this report covers the time until then.</div>\n");
    }
    for (String flag : run.flags()) {
      h.append("<div class=\"banner flag\">WARNING: ").append(escape(flag)).append("</div>\n");
    }
    checks(h, checks);
    requests(h, run);
    TopicSection.tables(h, TopicResults.of(run));
    charts(h, run);
    parameters(h, run);
    h.append("<p style=\"color:#777;font-size:12px\">Fusillade report · run record ")
        .append(
            escape(
                String.join(
                    ", ", run.injectors().stream().map(r -> r.manifest().runId()).toList())))
        .append("</p></body></html>\n");
    return h.toString();
  }

  private static void checks(StringBuilder h, List<CheckResult> checks) {
    if (checks.isEmpty()) {
      return;
    }
    h.append("<h2>Checks</h2>\n<table><tr><th>check</th><th>result</th><th>measured</th></tr>\n");
    for (CheckResult c : checks) {
      h.append("<tr><td><code>")
          .append(escape(c.check()))
          .append("</code></td><td class=\"")
          .append(c.passed() ? "pass\">passed" : "fail\">FAILED")
          .append("</td><td>")
          .append(escape(c.measured()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  private static void requests(StringBuilder h, RunData run) {
    h.append("<h2>Requests</h2>\n<table><tr><th>request</th><th>count</th><th>OK</th><th>KO</th>")
        .append("<th>rate/s</th><th>mean ms</th><th>p50 ms</th><th>p90 ms</th><th>p95 ms</th>")
        .append("<th>p99 ms</th><th>p99.9 ms</th><th>max ms</th></tr>\n");
    List<String[]> errors = new ArrayList<>();
    for (RequestSummary r : run.summaries()) {
      h.append("<tr><td>").append(escape(r.name())).append("</td>");
      cells(
          h,
          Long.toString(r.count()),
          Long.toString(r.ok()),
          Long.toString(r.ko()),
          Numbers.number(r.rate()),
          Numbers.number(r.meanMs()),
          Numbers.number(r.p50Ms()),
          Numbers.number(r.p90Ms()),
          Numbers.number(r.p95Ms()),
          Numbers.number(r.p99Ms()),
          Numbers.number(r.p999Ms()),
          Numbers.number(r.maxMs()));
      h.append("</tr>\n");
      r.errors()
          .forEach((reason, n) -> errors.add(new String[] {r.name(), reason, Long.toString(n)}));
    }
    h.append("</table>\n");
    if (!errors.isEmpty()) {
      h.append(
          "<h2>Errors by reason</h2>\n<table><tr><th>request</th><th>reason</th><th>count</th></tr>\n");
      errors.sort(Comparator.comparingLong((String[] e) -> -Long.parseLong(e[2])));
      for (String[] e : errors) {
        h.append("<tr><td>")
            .append(escape(e[0]))
            .append("</td><td style=\"text-align:left\">")
            .append(escape(e[1]))
            .append("</td><td>")
            .append(e[2])
            .append("</td></tr>\n");
      }
      h.append("</table>\n");
    }
  }

  private static void cells(StringBuilder h, String... values) {
    for (String v : values) {
      h.append("<td>").append(escape(v)).append("</td>");
    }
  }

  private static void charts(StringBuilder h, RunData run) {
    int n = run.seconds();
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = i + 1;
    }
    h.append("<h2>Over time</h2>\n<div class=\"charts\">\n");
    List<SvgChart.Series> rate = new ArrayList<>();
    rate.add(new SvgChart.Series("completed/s (all)", doubles(run.completedAll())));
    top(run.completedPerSecond())
        .forEach((name, s) -> rate.add(new SvgChart.Series(name, doubles(s))));
    if (rate.size() == 2) {
      rate.remove(1); // one request name: the same line twice
    }
    chart(h, "Requests completed per second", "requests/s", x, rate);

    List<SvgChart.Series> latency = new ArrayList<>();
    String[] names = {"p50", "p90", "p99", "max"};
    for (int p = 0; p < names.length; p++) {
      latency.add(new SvgChart.Series(names[p], run.latencyPerSecond(p)));
    }
    chart(h, "Latency of all requests (OK and KO)", "ms", x, latency);

    if (run.okP99PerSecond().size() > 1) {
      List<SvgChart.Series> perName = new ArrayList<>();
      topDoubles(run.okP99PerSecond(), run)
          .forEach((name, s) -> perName.add(new SvgChart.Series(name, s)));
      chart(h, "p99 of OK requests per request name", "ms", x, perName);
    }
    TopicSection.charts(run, (title, unit, series) -> chart(h, title, unit, x, series));

    List<SvgChart.Series> errors = new ArrayList<>();
    run.koPerSecond()
        .forEach(
            (name, s) -> {
              long sum = 0;
              for (long v : s) {
                sum += v;
              }
              if (sum > 0 && errors.size() < MAX_LINES) {
                errors.add(new SvgChart.Series(name, doubles(s)));
              }
            });
    chart(h, "Errors (KO) per second", "KO/s", x, errors);

    chart(
        h,
        "Injector lag (how late the load generator's threads ran)",
        "ms",
        x,
        List.of(
            new SvgChart.Series("p99", run.injectorLagP99()),
            new SvgChart.Series("max", run.injectorLagMax())));

    gaugeChart(h, run, x, "Consumer lag", "messages", g -> g.startsWith("lag."), 1);
    if (!run.counters().isEmpty()) {
      List<SvgChart.Series> counters = new ArrayList<>();
      run.counters()
          .forEach(
              (name, s) -> {
                if (counters.size() < MAX_LINES) {
                  counters.add(new SvgChart.Series(name, doubles(s)));
                }
              });
      chart(h, "Counters per second", "/s", x, counters);
    }
    gaugeChart(
        h,
        run,
        x,
        "CPU, whole machine",
        "%",
        g -> g.matches("system\\.cpu\\.(user|system|iowait|steal|busy)"),
        1);
    gaugeChart(h, run, x, "CPU busy per core", "%", null, 1);
    gaugeChart(h, run, x, "Load average (1 min)", "load", g -> g.equals("system.load1"), 1);
    gaugeChart(h, run, x, "Memory", "GiB", g -> g.startsWith("system.memory."), 1 << 30);
    gaugeChart(h, run, x, "Disk", "MB/s", g -> g.startsWith("system.disk."), 1e6);
    gaugeChart(h, run, x, "Network", "MB/s", g -> g.startsWith("system.net."), 1e6);
    gaugeChart(
        h, run, x, "Processes: CPU", "% of one core", g -> g.matches("process\\..*\\.cpu"), 1);
    gaugeChart(
        h, run, x, "Processes: memory (RSS)", "MB", g -> g.matches("process\\..*\\.rss"), 1e6);
    gaugeChart(
        h,
        run,
        x,
        "Other gauges",
        "value",
        g -> !g.startsWith("system.") && !g.startsWith("process.") && !g.startsWith("lag."),
        1);
    h.append("</div>\n");
  }

  private static void gaugeChart(
      StringBuilder h,
      RunData run,
      double[] x,
      String title,
      String unit,
      java.util.function.Predicate<String> names,
      double divisor) {
    List<SvgChart.Series> series = new ArrayList<>();
    if (names == null) {
      // per core: busy = 100 - idle
      for (Map.Entry<String, double[]> g : run.gauges().entrySet()) {
        if (g.getKey().matches("system\\.cpu\\.\\d+\\.idle") && series.size() < MAX_LINES) {
          double[] busy = g.getValue().clone();
          for (int i = 0; i < busy.length; i++) {
            busy[i] = 100 - busy[i];
          }
          series.add(new SvgChart.Series("cpu " + g.getKey().split("\\.")[2], busy));
        }
      }
    } else {
      for (Map.Entry<String, double[]> g : run.gauges().entrySet()) {
        if (names.test(g.getKey()) && series.size() < MAX_LINES) {
          double[] v = g.getValue().clone();
          for (int i = 0; i < v.length; i++) {
            v[i] /= divisor;
          }
          series.add(new SvgChart.Series(g.getKey(), v));
        }
      }
    }
    if (!series.isEmpty()) {
      chart(h, title, unit, x, series);
    }
  }

  private static void chart(
      StringBuilder h, String title, String unit, double[] x, List<SvgChart.Series> series) {
    h.append(SvgChart.lines(title, "seconds", unit, x, series, List.of())).append('\n');
  }

  private static Map<String, long[]> top(Map<String, long[]> series) {
    Map<String, long[]> top = new java.util.LinkedHashMap<>();
    series.entrySet().stream()
        .sorted(Comparator.comparingLong((Map.Entry<String, long[]> e) -> -sum(e.getValue())))
        .limit(MAX_LINES - 1)
        .forEach(e -> top.put(e.getKey(), e.getValue()));
    return top;
  }

  private static Map<String, double[]> topDoubles(Map<String, double[]> series, RunData run) {
    Map<String, double[]> top = new java.util.LinkedHashMap<>();
    series.entrySet().stream()
        .sorted(
            Comparator.comparingLong(
                (Map.Entry<String, double[]> e) -> -run.requests().get(e.getKey()).count()))
        .limit(MAX_LINES)
        .forEach(e -> top.put(e.getKey(), e.getValue()));
    return top;
  }

  private static long sum(long[] s) {
    long t = 0;
    for (long v : s) {
      t += v;
    }
    return t;
  }

  private static double[] doubles(long[] s) {
    double[] d = new double[s.length];
    for (int i = 0; i < s.length; i++) {
      d[i] = s[i];
    }
    return d;
  }

  private static void parameters(StringBuilder h, RunData run) {
    h.append("<h2>Parameters</h2>\n<table><tr><th>parameter</th><th>value</th></tr>\n");
    run.manifest()
        .parameters()
        .forEach(
            (k, v) ->
                h.append("<tr><td>")
                    .append(escape(k))
                    .append("</td><td>")
                    .append(escape(String.valueOf(v)))
                    .append("</td></tr>\n"));
    h.append(
        "</table>\n<h2>Health</h2>\n<table><tr><th>injector</th><th>entry</th><th>value</th></tr>\n");
    run.injectors()
        .forEach(
            r ->
                r.manifest()
                    .health()
                    .forEach(
                        (k, v) ->
                            h.append("<tr><td>")
                                .append(escape(r.manifest().runId()))
                                .append("</td><td>")
                                .append(escape(k))
                                .append("</td><td style=\"text-align:left\">")
                                .append(escape(String.valueOf(TopicSection.healthValue(k, v))))
                                .append("</td></tr>\n")));
    h.append("</table>\n");
  }
}
