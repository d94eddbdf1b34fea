package io.fusillade.reports.html;

import static io.fusillade.reports.html.Html.escape;

import io.fusillade.record.FailureClass;
import io.fusillade.record.RequestTotals;
import io.fusillade.reports.checks.CheckResult;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.RequestSummary;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.TimeBands;
import io.fusillade.reports.runs.TopicResults;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The HTML report of one run ({@code index.html}): status, flags, checks, per request name counts
 * and latency percentiles (with why Gatling's differ), errors by reason grouped by who failed
 * ({@link io.fusillade.record.FailureClass}), the topics ({@link TopicSection}: end-to-end latency
 * and delivery), the latency distribution, time series charts (rate, latency, errors, injector lag,
 * consumer lag, system and process metrics) with the load's steps shaded, parameters and health. No
 * script and nothing inline that a Content-Security-Policy drops: its styles are in {@link
 * Html#STYLESHEET_FILE} beside it.
 *
 * <p>Why one class of about 600 lines: it lays out the page's sections in order and holds the
 * page's shared pieces (head, styles, navigation); each section with logic of its own is already a
 * class (EventsSection, TopicSection, SqlRetriesSection...).
 */
public final class ReportPage {
  private static final int MAX_LINES = 10;

  /** Why Gatling's report shows other percentiles for the same run. */
  static final String GATLING_NOTE =
      "Why Gatling's report shows other percentiles: Fusillade times each request from its"
          + " <b>intended start</b> (when the action was entered, before any wait for a thread"
          + " or a connection) and keeps the latencies in HdrHistograms at 3 significant digits;"
          + " Gatling computes its percentiles its own way from whole-millisecond response times"
          + " (for its own protocols, such as HTTP, timed from when the request was sent). So one"
          + " run can read p99 19 ms in Gatling and 14.0 ms here; and when requests queued before"
          + " being sent (coordinated omission), Fusillade's are the higher ones, because the wait"
          + " counts.";

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
    return render(run, checks, title, null);
  }

  /**
   * The page, written into {@code output}: links to files of the run record (its JFR profile) are
   * relative to it, so they still work where the report and the record are published together.
   *
   * @param output the directory the page is written to, or null (the links are then absolute)
   */
  public static String render(
      RunData run, List<CheckResult> checks, String title, java.nio.file.Path output) {
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
    int truncated = run.injectors().stream().mapToInt(r -> r.truncatedLines()).sum();
    if (truncated > 0) {
      // as the console says it
      h.append("<p class=\"note\">(")
          .append(truncated)
          .append(" unfinished line(s) at the end of the record were skipped)</p>\n");
    }
    checks(h, checks);
    LimitSection.render(h, run);
    AdaptiveSection.render(h, run);
    requests(h, run);
    SqlRetriesSection.render(h, run);
    InjectedSection.render(h, run);
    TopicSection.tables(h, TopicResults.of(run));
    DistributionsSection.table(h, run);
    EventsSection.table(h, run);
    distribution(h, run);
    charts(h, run);
    parameters(h, run);
    profiles(h, run, output);
    h.append("<p class=\"footer\">Fusillade report · run record ")
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
    // the same words as the console and junit.xml: the numbers and the rule that decided
    h.append("<h2>Checks</h2>\n<table class=\"checks\"><tr><th>check</th><th>result</th>")
        .append("<th>why: what was measured and the rule</th></tr>\n");
    for (CheckResult c : checks) {
      h.append("<tr><td><code>")
          .append(escape(c.check()))
          .append("</code></td><td class=\"")
          .append(
              c.deferred() ? "deferred\">deferred" : c.passed() ? "pass\">passed" : "fail\">FAILED")
          .append("</td><td class=\"text\">")
          .append(escape(c.why()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  private static void requests(StringBuilder h, RunData run) {
    h.append(
            "<h2>Requests</h2>\n<table id=\"requests\"><tr><th>request</th><th>count</th><th>OK</th><th>KO</th>")
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
    h.append("</table>\n<p class=\"note\" id=\"percentiles-note\">").append(GATLING_NOTE);
    h.append("</p>\n");
    if (!errors.isEmpty()) {
      // grouped by who failed: the server, the network or the injector (FailureClass)
      Map<FailureClass, Long> sums = new java.util.EnumMap<>(FailureClass.counts(Map.of()));
      for (String[] e : errors) {
        sums.merge(FailureClass.of(e[1]), Long.parseLong(e[2]), Long::sum);
      }
      h.append("<h2>Errors by reason</h2>\n<p id=\"ko-classes\">KO by class:");
      String separator = " ";
      for (FailureClass c : FailureClass.values()) {
        h.append(separator).append(c.label()).append(' ').append(sums.get(c));
        separator = ", ";
      }
      h.append(
          "</p>\n<table><tr><th>class</th><th>request</th><th>reason</th><th>count</th></tr>\n");
      errors.sort(
          Comparator.comparing((String[] e) -> FailureClass.of(e[1]))
              .thenComparingLong((String[] e) -> -Long.parseLong(e[2])));
      for (String[] e : errors) {
        h.append("<tr><td>")
            .append(FailureClass.of(e[1]).label())
            .append("</td><td>")
            .append(escape(e[0]))
            .append("</td><td class=\"text\">")
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
    double[] x = run.secondEnds();
    List<TimeBands.Band> bands = TimeBands.of(run);
    h.append("<h2>Over time</h2>\n");
    if (bands.stream().anyMatch(b -> b.kind() == TimeBands.Kind.STEP)) {
      h.append("<p class=\"note\">Shaded bands: the steps of the injection profile recorded in")
          .append(" <code>run.json</code>, from the first second with requests sent.</p>\n");
    }
    if (bands.stream().anyMatch(b -> b.kind() == TimeBands.Kind.FAULT)) {
      h.append("<p class=\"note\">Red bands: a node of the system under test was down, from")
          .append(" the first refused, reset or timed-out connection to the probe that found it")
          .append(" answering again (<code>events.jsonl</code>).</p>\n");
    }
    if (bands.stream().anyMatch(b -> b.kind() == TimeBands.Kind.INJECTED)) {
      h.append("<p class=\"note\">Orange band: requests injected to fail were sent, from the")
          .append(" first to the last second with one (see <a href=\"#injected\">Injected")
          .append(" requests</a>).</p>\n");
    }
    h.append("<div class=\"charts\">\n");
    Charts charts = new Charts(h, x, bands);
    List<SvgChart.Series> rate = new ArrayList<>();
    rate.add(new SvgChart.Series("all requests", run.completedRateAll()));
    for (String name : top(run.completedPerSecond()).keySet()) {
      rate.add(new SvgChart.Series(name, run.completedRate().get(name)));
    }
    if (rate.size() == 2) {
      rate.remove(1); // one request name: the same line twice
    }
    charts.line("Requests completed per second", "requests/s", rate);

    List<SvgChart.Series> latency = new ArrayList<>();
    String[] names = {"p50", "p90", "p99", "max"};
    for (int p = 0; p < names.length; p++) {
      latency.add(new SvgChart.Series(names[p], run.latencyPerSecond(p)));
    }
    charts.latency("Latency of all requests (OK and KO)", latency);

    if (run.okP99PerSecond().size() > 1) {
      List<SvgChart.Series> perName = new ArrayList<>();
      topDoubles(run.okP99PerSecond(), run)
          .forEach((name, s) -> perName.add(new SvgChart.Series(name, s)));
      charts.latency("p99 of OK requests per request name", perName);
    }
    TopicSection.charts(run, (title, unit, series) -> charts.latency(title, series));
    DistributionsSection.charts(run, (title, unit, series) -> charts.latency(title, series));

    List<SvgChart.Series> errors = new ArrayList<>();
    run.koRate()
        .forEach(
            (name, s) -> {
              long[] counts = run.koPerSecond().get(name);
              if (counts != null && sum(counts) > 0 && errors.size() < MAX_LINES) {
                errors.add(new SvgChart.Series(name, s));
              }
            });
    // nothing failed is a measurement, not a missing one
    charts.line("Errors (KO) per second", "KO/s", errors, "0 KO: no request failed");

    charts.latency(
        "Injector lag (how late the load generator's timer ran)",
        List.of(
            new SvgChart.Series("p99", run.injectorLagP99()),
            new SvgChart.Series("max", run.injectorLagMax())));

    charts.gauges(run, "Consumer lag", "messages", g -> g.startsWith("lag.") || isTopicLag(g), 1);
    charts.gauges(
        run,
        "Producer throttle time (the brokers' quotas)",
        "ms",
        g -> g.startsWith("topic.producer.throttle."),
        1);
    charts.gauges(
        run,
        "Local servers' data on disk",
        "MB",
        g -> g.startsWith("directory.") && g.endsWith(".bytes"),
        1e6);
    // the embedded brokers' disks of a chosen size (-Dkafka.embedded.diskSize): 100 is full
    charts.gauges(
        run,
        "Local servers' disks used",
        "%",
        g -> g.startsWith("directory.") && g.endsWith(".use"),
        1);
    counters(charts, run);
    charts.gauges(
        run,
        "CPU, whole machine",
        "%",
        g -> g.matches("system\\.cpu\\.(user|system|iowait|steal|busy)"),
        1);
    charts.cores(run);
    charts.gauges(run, "Load average (1 min)", "load", g -> g.equals("system.load1"), 1);
    charts.gauges(run, "Memory", "GiB", g -> g.startsWith("system.memory."), 1 << 30);
    charts.gauges(run, "Disk", "MB/s", g -> g.startsWith("system.disk."), 1e6);
    charts.gauges(run, "Network", "MB/s", g -> g.startsWith("system.net."), 1e6);
    charts.gauges(run, "Processes: CPU", "% of one core", g -> g.matches("process\\..*\\.cpu"), 1);
    charts.gauges(run, "Processes: memory (RSS)", "MB", g -> g.matches("process\\..*\\.rss"), 1e6);
    servers(charts, run);
    charts.gauges(
        run,
        "Other gauges",
        "value",
        g ->
            !g.startsWith("system.")
                && !g.startsWith("server.")
                && !g.startsWith("directory.")
                && !g.startsWith("topic.producer.throttle.")
                && !g.startsWith("process.")
                && !g.startsWith("lag.")
                && !isTopicLag(g),
        1);
    h.append("</div>\n");
  }

  /**
   * The counters per second, one chart per unit: bytes (in MB/s) apart from what is counted in
   * items (documents, messages, failed items, timeouts), which one axis could not show together.
   */
  private static void counters(Charts charts, RunData run) {
    List<SvgChart.Series> bytes = new ArrayList<>();
    List<SvgChart.Series> items = new ArrayList<>();
    run.counterRate()
        .forEach(
            (name, perSecond) -> {
              if (isBytes(name)) {
                double[] mb = perSecond.clone();
                for (int i = 0; i < mb.length; i++) {
                  mb[i] /= 1e6;
                }
                if (bytes.size() < MAX_LINES) {
                  bytes.add(new SvgChart.Series(name, mb));
                }
              } else if (items.size() < MAX_LINES) {
                items.add(new SvgChart.Series(name, perSecond));
              }
            });
    if (!items.isEmpty()) {
      charts.line("Counters per second: documents, messages, items", "per second", items);
    }
    if (!bytes.isEmpty()) {
      charts.line("Counters per second: bytes", "MB/s", bytes);
    }
  }

  /** Whether a counter counts bytes ({@code logs.bytes}, {@code topic.T.produced.bytes}). */
  static boolean isBytes(String counter) {
    return counter.toLowerCase(java.util.Locale.ROOT).endsWith("bytes");
  }

  /**
   * The charts of each server under test whose metrics were recorded ({@code server.NAME.*}, from
   * its exporter): as the injector's machine's, then its containers' and its other metrics.
   */
  private static void servers(Charts charts, RunData run) {
    java.util.SortedSet<String> servers = new java.util.TreeSet<>();
    for (String gauge : run.gauges().keySet()) {
      String[] parts = gauge.split("\\.", 3);
      if (parts.length == 3 && parts[0].equals("server")) {
        servers.add(parts[1]);
      }
    }
    for (String server : servers) {
      String p = "server." + server + ".";
      String t = "Server " + server + ": ";
      charts.gauges(run, t + "CPU", "%", g -> g.startsWith(p + "cpu.") && !g.endsWith(".idle"), 1);
      charts.gauges(run, t + "memory", "GiB", g -> g.startsWith(p + "memory."), 1 << 30);
      charts.gauges(run, t + "disk", "MB/s", g -> g.startsWith(p + "disk."), 1e6);
      charts.gauges(run, t + "network", "MB/s", g -> g.startsWith(p + "net."), 1e6);
      charts.gauges(
          run,
          t + "filesystem",
          "GiB",
          g -> g.equals(p + "filesystem.used") || g.equals(p + "filesystem.available"),
          1 << 30);
      charts.gauges(
          run,
          t + "containers' CPU",
          "% of one core",
          g -> g.startsWith(p + "container.") && g.endsWith(".cpu"),
          1);
      charts.gauges(
          run,
          t + "containers' memory (working set)",
          "MB",
          g -> g.startsWith(p + "container.") && g.endsWith(".memory"),
          1e6);
      charts.gauges(
          run,
          t + "other metrics",
          "value",
          g ->
              g.startsWith(p + "metric.")
                  || g.equals(p + "load1")
                  || g.equals(p + "filesystem.use"),
          1);
    }
  }

  private static boolean isTopicLag(String gauge) {
    return gauge.startsWith("topic.") && gauge.endsWith(".lag");
  }

  /**
   * The latency distribution: one HdrHistogram percentile curve per request name (OK and KO), on
   * the 1/(1-p) axis, most requests first.
   */
  private static void distribution(StringBuilder h, RunData run) {
    List<SvgChart.Series> curves = new ArrayList<>();
    run.requests().values().stream()
        .filter(t -> t.count() > 0)
        .sorted(Comparator.comparingLong((RequestTotals t) -> -t.count()))
        .limit(MAX_LINES)
        .forEach(t -> curves.add(PercentileCurve.of(t.name(), t.all())));
    if (curves.isEmpty()) {
      return;
    }
    h.append("<h2>Latency distribution</h2>\n<p class=\"note\">Latency at each percentile, the")
        .append(" tail spread out: each step right is ten times rarer (90%, 99%, 99.9%...).")
        .append(" Read from the whole-run HdrHistograms.</p>\n<div class=\"charts\">\n");
    new Charts(h, new double[0], List.of())
        .figure(
            SvgChart.titled("Latency by percentile")
                .x("percentile", new double[0])
                .y("ms")
                .percentileX()
                .series(curves));
    h.append("</div>\n");
  }

  /** Draws the time charts of one page: their x positions and bands in common. */
  private record Charts(StringBuilder h, double[] x, List<TimeBands.Band> bands) {
    SvgChart chart(String title, String unit, List<SvgChart.Series> series) {
      return SvgChart.titled(title).x("seconds", x).xFrom(0).y(unit).series(series).bands(bands);
    }

    void line(String title, String unit, List<SvgChart.Series> series) {
      h.append("<figure class=\"chart\">")
          .append(chart(title, unit, series).render())
          .append("</figure>\n");
    }

    /** A chart that says {@code empty} when it has nothing to draw. */
    void line(String title, String unit, List<SvgChart.Series> series, String empty) {
      h.append("<figure class=\"chart\">")
          .append(chart(title, unit, series).whenEmpty(empty).render())
          .append("</figure>\n");
    }

    void latency(String title, List<SvgChart.Series> series) {
      figure(chart(title, "ms", series));
    }

    /**
     * A latency chart: on a log axis when its values span more than a factor 10 (one slow second
     * would flatten the others on a linear one), the same chart on a linear axis in a fold under it
     * (HTML {@code <details>}: no script).
     */
    void figure(SvgChart chart) {
      h.append("<figure class=\"chart\">");
      boolean log = chart.isWideRange();
      h.append(chart.logY(log).render());
      if (log) {
        h.append("<details><summary>linear axis</summary>")
            .append(chart.logY(false).render())
            .append("</details>");
      }
      h.append("</figure>\n");
    }

    void gauges(
        RunData run,
        String title,
        String unit,
        java.util.function.Predicate<String> names,
        double divisor) {
      List<SvgChart.Series> series = new ArrayList<>();
      for (Map.Entry<String, double[]> g : run.gauges().entrySet()) {
        if (names.test(g.getKey()) && series.size() < MAX_LINES) {
          double[] v = g.getValue().clone();
          for (int i = 0; i < v.length; i++) {
            v[i] /= divisor; // a unit, not a length: gauges are levels
          }
          series.add(new SvgChart.Series(GaugeNames.of(g.getKey()), v));
        }
      }
      if (!series.isEmpty()) {
        line(title, unit, series);
      }
    }

    /** Busy per core: 100 - idle. */
    void cores(RunData run) {
      List<SvgChart.Series> series = new ArrayList<>();
      for (Map.Entry<String, double[]> g : run.gauges().entrySet()) {
        if (g.getKey().matches("system\\.cpu\\.\\d+\\.idle") && series.size() < MAX_LINES) {
          double[] busy = g.getValue().clone();
          for (int i = 0; i < busy.length; i++) {
            busy[i] = 100 - busy[i];
          }
          series.add(new SvgChart.Series("core " + g.getKey().split("\\.")[2] + " busy %", busy));
        }
      }
      if (!series.isEmpty()) {
        line("CPU busy per core", "%", series);
      }
    }
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

  /** Links to the JFR profiles of the load generator, when the run recorded them. */
  private static void profiles(StringBuilder h, RunData run, java.nio.file.Path output) {
    List<java.nio.file.Path> files =
        run.injectors().stream()
            .map(r -> r.directory().resolve("profile.jfr"))
            .filter(java.nio.file.Files::isRegularFile)
            .toList();
    if (files.isEmpty()) {
      return;
    }
    h.append("<h2 id=\"profile\">Profile of the load generator</h2>\n<p class=\"note\">")
        .append("Java Flight Recorder, recorded with <code>--profile</code>: open it in JDK")
        .append(" Mission Control, or <code>jfr print --events jdk.ExecutionSample</code>.</p>\n")
        .append("<ul>\n");
    for (java.nio.file.Path file : files) {
      String link =
          output != null
              ? output
                  .toAbsolutePath()
                  .normalize()
                  .relativize(file.toAbsolutePath().normalize())
                  .toString()
                  .replace(java.io.File.separatorChar, '/')
              : file.toAbsolutePath().toUri().toString();
      h.append("<li><a href=\"")
          .append(escape(link))
          .append("\">")
          .append(escape(file.getParent().getFileName() + "/" + file.getFileName()))
          .append("</a></li>\n");
    }
    h.append("</ul>\n");
  }

  private static void parameters(StringBuilder h, RunData run) {
    h.append(
        "<h2>Parameters</h2>\n<table class=\"text\"><tr><th>parameter</th><th>value</th></tr>\n");
    run.manifest()
        .parameters()
        .forEach(
            (k, v) ->
                h.append("<tr><td>")
                    .append(escape(k))
                    .append("</td><td class=\"text\">")
                    .append(escape(HealthSection.plain(v)))
                    .append("</td></tr>\n"));
    h.append("</table>\n");
    HealthSection.render(h, run.injectors());
  }
}
