package io.fusillade.reports.runs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.FusilladeException;
import io.fusillade.record.Latencies;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunFiles;
import io.fusillade.record.RunManifest;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

/**
 * One run as the reports see it: the record of one injector, or of several injectors of the same
 * run merged. Histograms are merged exactly (HdrHistogram addition of the same-shaped histograms,
 * so percentiles are those of all values together); counts and counters are summed second by
 * second, aligned on wall-clock time from the earliest injector's start.
 *
 * <p>Besides the totals it holds per-second series for charts, built in the single pass that
 * decodes {@code latency.hlog}: completed and failed requests per name, latency percentiles of all
 * requests (from a per-second merge at two significant digits: 1% resolution, enough for a chart),
 * p99 of OK requests per name, percentiles of each metric (such as end-to-end latency), injector
 * lag, counters and gauges; and the latency of the requests not injected to fail in each second,
 * for {@link #goodLatencies}. Gauges of several injectors are averaged for {@code system.*} and
 * {@code process.*} (each injector measures its own machine) and summed for the others (each
 * injector's consumers report their own lag).
 */
public final class RunData {
  /** The percentiles of the per-second latency series of all requests. */
  public static final double[] SECOND_PERCENTILES = {50, 90, 99, 100};

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The key of all request names together in the builder's rates (not a request name: NUL). */
  static final String ALL = "\u0000all";

  private final List<RunRecord> injectors;
  private final RunStatus status;
  private final String statusReason;
  private final long startEpochMs;
  private final long endEpochMs;
  private final Map<String, RequestTotals> requests;
  private final Map<String, Histogram> metrics;
  private final List<String> flags;
  private final List<String> checks;
  private final int seconds;
  private final Map<String, long[]> completedPerSecond;
  private final Map<String, long[]> koPerSecond;
  private final Map<String, long[]> sentPerSecond;
  private final Map<String, long[]> counters;
  private final Map<String, double[]> gauges;
  private final Map<String, double[]> completedRate;
  private final double[] completedRateAll;
  private final Map<String, double[]> koRate;
  private final Map<String, double[]> counterRate;
  private final double[] secondEnds;
  private final double[][] latency;
  private final AbstractHistogram[] goodPerSecond;
  private final Map<String, double[]> okP99;
  private final double[] lagP99;
  private final double[] lagMax;
  private final Map<String, double[][]> metricSeconds;
  private final Map<String, Double> rates = new java.util.concurrent.ConcurrentHashMap<>();

  private RunData(RunDataBuilder b) {
    this.injectors = List.copyOf(b.records);
    this.status = b.status;
    this.statusReason = b.statusReason;
    this.startEpochMs = b.startEpochMs;
    this.endEpochMs = b.endEpochMs;
    this.requests = Collections.unmodifiableMap(b.requests);
    this.metrics = Collections.unmodifiableMap(b.metrics);
    this.flags = List.copyOf(b.flags);
    this.checks = List.copyOf(b.checks);
    this.seconds = b.seconds;
    this.completedPerSecond = fitLongs(b.completed, seconds);
    this.koPerSecond = fitLongs(b.ko, seconds);
    this.sentPerSecond = fitLongs(b.sent, seconds);
    this.counters = fitLongs(b.counters, seconds);
    double[] all = b.completedRate.remove(ALL);
    this.completedRateAll = Growable.fit(all == null ? new double[0] : all, seconds);
    this.completedRate = fitDoubles(b.completedRate, seconds);
    this.koRate = fitDoubles(b.koRate, seconds);
    this.counterRate = fitDoubles(b.counterRate, seconds);
    this.secondEnds = new double[seconds];
    double duration = Math.max(0, b.endEpochMs - b.startEpochMs) / 1000.0;
    for (int i = 0; i < seconds; i++) {
      secondEnds[i] = i + 1;
    }
    if (seconds > 0 && duration > seconds - 1 && duration < seconds) {
      secondEnds[seconds - 1] = duration; // the last second is partial: plotted where it ended
    }
    Map<String, double[]> gaugeSeries = new TreeMap<>();
    b.gaugeSums.forEach(
        (name, sum) -> {
          double[] s = Growable.fit(sum, seconds);
          if (averaged(name)) {
            long[] n = Growable.fit(b.gaugeCounts.get(name), seconds);
            for (int i = 0; i < s.length; i++) {
              s[i] = n[i] == 0 ? Double.NaN : s[i] / n[i];
            }
          }
          gaugeSeries.put(name, s);
        });
    this.gauges = Collections.unmodifiableMap(gaugeSeries);
    this.latency = new double[SECOND_PERCENTILES.length][seconds];
    for (double[] row : latency) {
      java.util.Arrays.fill(row, Double.NaN);
    }
    b.perSecond.forEach(
        (second, h) -> {
          if (second < seconds && h.getTotalCount() > 0) {
            for (int p = 0; p < SECOND_PERCENTILES.length; p++) {
              latency[p][second] = h.getValueAtPercentile(SECOND_PERCENTILES[p]) / 1000.0;
            }
          }
        });
    this.goodPerSecond = new AbstractHistogram[seconds];
    b.goodPerSecond.forEach(
        (second, h) -> {
          if (second < seconds) {
            goodPerSecond[second] = h;
          }
        });
    Map<String, double[]> p99 = new TreeMap<>();
    b.okP99.forEach((name, s) -> p99.put(name, Growable.fit(s, seconds)));
    this.okP99 = Collections.unmodifiableMap(p99);
    this.lagP99 = Growable.fit(b.lagP99, seconds);
    this.lagMax = Growable.fit(b.lagMax, seconds);
    Map<String, double[][]> perMetric = new TreeMap<>();
    b.metricSeconds.forEach(
        (name, rows) -> {
          double[][] fitted = new double[rows.length][];
          for (int p = 0; p < rows.length; p++) {
            fitted[p] = Growable.fit(rows[p], seconds);
          }
          perMetric.put(name, fitted);
        });
    this.metricSeconds = Collections.unmodifiableMap(perMetric);
  }

  private static boolean averaged(String gauge) {
    return gauge.startsWith("system.") || gauge.startsWith("process.");
  }

  private static Map<String, double[]> fitDoubles(Map<String, double[]> series, int length) {
    Map<String, double[]> fitted = new TreeMap<>();
    series.forEach((name, s) -> fitted.put(name, Growable.fit(s, length)));
    return Collections.unmodifiableMap(fitted);
  }

  private static Map<String, long[]> fitLongs(Map<String, long[]> series, int length) {
    Map<String, long[]> fitted = new TreeMap<>();
    series.forEach((name, s) -> fitted.put(name, Growable.fit(s, length)));
    return Collections.unmodifiableMap(fitted);
  }

  /**
   * Reads one run directory.
   *
   * @param directory a run directory
   * @return the run
   * @throws FusilladeException when it holds no readable run record
   */
  public static RunData load(Path directory) {
    return load(List.of(directory));
  }

  /**
   * Reads the records of one run's injectors and merges them. Each file is read once and each
   * histogram interval decoded once.
   *
   * @param directories one run directory per injector, at least one
   * @return the merged run
   * @throws FusilladeException when a directory holds no readable run record
   */
  public static RunData load(List<Path> directories) {
    if (directories.isEmpty()) {
      throw new FusilladeException("no run directory given");
    }
    RunDataBuilder b = new RunDataBuilder();
    b.startEpochMs = Long.MAX_VALUE;
    for (Path directory : directories) {
      b.startEpochMs = Math.min(b.startEpochMs, startOf(directory));
    }
    for (Path directory : directories) {
      b.add(directory);
    }
    b.flags.addAll(InjectorAgreement.flags(b.records));
    return new RunData(b);
  }

  /** The start written in {@code run.json}, read before the record so seconds can be aligned. */
  static long startOf(Path directory) {
    Path manifest = directory.resolve(RunFiles.MANIFEST);
    try {
      JsonNode start = JSON.readTree(manifest.toFile()).path("startEpochMs");
      if (start.canConvertToLong()) {
        return start.asLong();
      }
    } catch (IOException e) {
      // RunRecordReader gives the precise message below
    }
    return RunRecordReader.read(directory).manifest().startEpochMs();
  }

  /** The injectors' records, in the order given. */
  public List<RunRecord> injectors() {
    return injectors;
  }

  /** The first injector's manifest: simulation, parameters, health. */
  public RunManifest manifest() {
    return injectors.get(0).manifest();
  }

  /** Completed, or the status of the first injector whose record is partial. */
  public RunStatus status() {
    return status;
  }

  /**
   * Why the run did not complete, from the record whose status {@link #status()} is: a failed run's
   * error, "no request was sent", why a record is incomplete; null when it completed or no reason
   * was written.
   */
  public String statusReason() {
    return statusReason;
  }

  /**
   * The status, with its reason when there is one: {@code failed: no request was sent}.
   *
   * @return the status's name in {@code run.json}, and the reason after a colon
   */
  public String statusText() {
    return status.jsonName() + (statusReason == null ? "" : ": " + statusReason);
  }

  /** True when some injector's record does not cover a whole, normally ended run. */
  public boolean isPartial() {
    return status.isPartial();
  }

  /**
   * Every injector's events ({@code events.jsonl}: node down and up...), in time order. Each
   * injector sees a node fail for itself, so one outage may appear once per injector.
   */
  public List<io.fusillade.record.RunEvent> events() {
    List<io.fusillade.record.RunEvent> all = new java.util.ArrayList<>();
    injectors.forEach(record -> all.addAll(record.events()));
    all.sort(java.util.Comparator.comparingLong(io.fusillade.record.RunEvent::epochMs));
    return all;
  }

  /** The earliest injector's start, epoch ms. */
  public long startEpochMs() {
    return startEpochMs;
  }

  /** Seconds from the earliest start to the latest end. */
  public double durationSeconds() {
    return Math.max(0, endEpochMs - startEpochMs) / 1000.0;
  }

  /** Per request name, the merged totals, sorted by name. */
  public Map<String, RequestTotals> requests() {
    return requests;
  }

  /** Per metric name (such as {@code injector.lag}), the merged whole-run histogram. */
  public Map<String, Histogram> metrics() {
    return metrics;
  }

  /** Every injector's flags, once each. */
  public List<String> flags() {
    return flags;
  }

  /** The checks declared in the injectors' {@code run.json}, once each. */
  public List<String> declaredChecks() {
    return checks;
  }

  /** The number of seconds of the per-second series. */
  public int seconds() {
    return seconds;
  }

  /** Per request name, requests completed (OK + KO) in each second. */
  public Map<String, long[]> completedPerSecond() {
    return completedPerSecond;
  }

  /** Per request name, failed requests in each second. */
  public Map<String, long[]> koPerSecond() {
    return koPerSecond;
  }

  /** Per request name, requests sent (the arrival rate) in each second. */
  public Map<String, long[]> sentPerSecond() {
    return sentPerSecond;
  }

  /** Per counter, its increase in each second, summed over the injectors. */
  public Map<String, long[]> counters() {
    return counters;
  }

  /**
   * Per gauge, its value in each second ({@code NaN} when missing), sorted by name: a level, never
   * divided by an interval's length; the mean of one injector's values when two of its intervals
   * ended in the same second, then averaged ({@code system.*}, {@code process.*}) or summed (the
   * others) over the injectors.
   */
  public Map<String, double[]> gauges() {
    return gauges;
  }

  /**
   * Latency of all requests (OK and KO) in each second, ms, at {@link #SECOND_PERCENTILES}[{@code
   * index}].
   */
  public double[] latencyPerSecond(int index) {
    return latency[index];
  }

  /**
   * The latency of the workload's own requests (every request name not {@linkplain
   * io.fusillade.record.Injected#is injected to fail}, OK and KO together) in a range of seconds:
   * the intervals of {@code latency.hlog} that ended in them, merged over the injectors at two
   * significant digits (1% resolution, like {@link #latencyPerSecond}). What the injected requests
   * did to the good ones reads from it before, during and after the injection ({@link
   * InjectionPeriods}).
   *
   * @param fromSecond the first second's index, inclusive (second {@code i} ends at {@code i + 1}
   *     s)
   * @param toSecond the last second's index, exclusive; clamped to {@link #seconds()}
   * @return a new histogram of microseconds, empty when no good request ended in the range
   */
  public AbstractHistogram goodLatencies(int fromSecond, int toSecond) {
    AbstractHistogram sum = RunDataBuilder.secondHistogram();
    for (int i = Math.max(0, fromSecond); i < Math.min(toSecond, seconds); i++) {
      if (goodPerSecond[i] != null) {
        sum.add(goodPerSecond[i]);
      }
    }
    return sum;
  }

  /** Per request name, the p99 of OK requests in each second, ms (several injectors: the worst). */
  public Map<String, double[]> okP99PerSecond() {
    return okP99;
  }

  /** The injector lag's p99 in each second, ms (several injectors: the worst). */
  public double[] injectorLagP99() {
    return lagP99;
  }

  /**
   * A metric's latency in each second (such as a topic's end-to-end latency, {@code e2e <topic>}),
   * ms: row {@code i} at {@link #SECOND_PERCENTILES}[{@code i}], {@code NaN} for a second without
   * values. With several injectors each second holds the worst injector's value (their one-second
   * histograms are not merged: the whole-run {@link #metrics()} are).
   *
   * @param name the metric
   * @return the rows, or null for a metric the run does not have
   */
  public double[][] metricPerSecond(String name) {
    return metricSeconds.get(name);
  }

  /** The injector lag's maximum in each second, ms. */
  public double[] injectorLagMax() {
    return lagMax;
  }

  /**
   * Where each second of the per-second series ends, in seconds from the start: {@code i + 1},
   * except a last second cut short by the run's end, which ends there. The x positions of the
   * report's time charts.
   */
  public double[] secondEnds() {
    return secondEnds.clone();
  }

  /**
   * Per request name, requests completed (OK + KO) per second in each second: the count divided by
   * the real length of the intervals that ended in it (the partial last interval of a run is not a
   * drop), summed over the injectors. {@code NaN} where no interval ended.
   */
  public Map<String, double[]> completedRate() {
    return completedRate;
  }

  /** All request names' completions per second, like {@link #completedRate()}. */
  public double[] completedRateAll() {
    return completedRateAll.clone();
  }

  /** Per request name, failed requests per second, like {@link #completedRate()}. */
  public Map<String, double[]> koRate() {
    return koRate;
  }

  /** Per counter, its increase per second, like {@link #completedRate()}. */
  public Map<String, double[]> counterRate() {
    return counterRate;
  }

  /** All request names' completions per second, summed. */
  public long[] completedAll() {
    long[] all = new long[seconds];
    completedPerSecond.values().forEach(s -> add(all, s));
    return all;
  }

  private static void add(long[] into, long[] s) {
    for (int i = 0; i < into.length; i++) {
      into[i] += s[i];
    }
  }

  /**
   * The steady-state rate of one request name, or of all when {@code name} is null: completed
   * requests per second, by {@link SteadyRate}. Injectors of one run run side by side, so the run's
   * rate is the sum of each injector's steady rate; each is measured on its own record's intervals
   * (their real lengths: the per-second series above are aligned for charts, not for rates).
   *
   * @param name a request name, or null
   * @return requests per second, 0 for an unknown name
   */
  public double rate(String name) {
    return rates.computeIfAbsent(
        name == null ? "" : "name:" + name,
        key -> {
          if (name != null && !requests.containsKey(name)) {
            return 0.0;
          }
          double sum = 0;
          for (RunRecord record : injectors) {
            if (name == null || record.requests().containsKey(name)) {
              sum += SteadyRate.of(record, name);
            }
          }
          return sum;
        });
  }

  /** The summary line of each request name, with its steady-state rate. */
  public List<RequestSummary> summaries() {
    List<RequestSummary> rows = new ArrayList<>();
    requests.forEach((name, totals) -> rows.add(RequestSummary.of(totals, rate(name))));
    return rows;
  }

  /** OK and KO of all request names together. */
  public Histogram allLatencies() {
    Histogram all = Latencies.newHistogram();
    requests
        .values()
        .forEach(
            t -> {
              all.add(t.ok());
              all.add(t.ko());
            });
    return all;
  }
}
