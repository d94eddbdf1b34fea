package io.fusillade.reports.runs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fusillade.record.Latencies;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntToDoubleFunction;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes run records in the format of src/site/run-record.md directly, without waiting for real
 * seconds to pass: for tests and for the report benchmark ({@link #main}).
 */
public final class SyntheticRecord {
  private static final ObjectMapper JSON = new ObjectMapper();

  String simulation = "io.example.SyntheticSimulation";
  long startEpochMs = 1_800_000_000_000L;
  int seconds = 10;
  List<String> names = List.of("q");
  int ratePerName = 100;

  /** Median latency in microseconds, per second of the run (lognormal, sigma 0.3). */
  IntToDoubleFunction medianMicros = s -> 2000;

  IntToDoubleFunction koFraction = s -> 0;

  /** Per request name, its own requests per second, second by second, instead of the rate. */
  Map<String, java.util.function.IntUnaryOperator> nameRates = new LinkedHashMap<>();

  /** Per request name, its own share of KOs, second by second, instead of {@link #koFraction}. */
  Map<String, IntToDoubleFunction> nameKo = new LinkedHashMap<>();

  /** The reasons KOs are recorded with, taken in turn (one reason per name and second). */
  List<String> koReasons = List.of("timeout");

  String status = "completed";
  String statusReason;
  long seed = 1;
  long pid = 4242;
  String host = "synthetic-host";
  Map<String, Object> parameters = new LinkedHashMap<>();
  List<String> checks = new ArrayList<>();
  Map<String, IntToDoubleFunction> gauges = new LinkedHashMap<>();
  Map<String, Long> countersPerSecond = new LinkedHashMap<>();
  Map<String, IntToDoubleFunction> metrics = new LinkedHashMap<>();
  int metricValuesPerSecond = 100;

  /** The bytes each request carried (a bulk body, a message), 0 for none. */
  long bytesPerRequest;

  Map<String, Object> health = new LinkedHashMap<>();

  /** The length of the last interval, seconds: below 1 for a run that ended mid-second. */
  double lastInterval = 1;

  /** Every latency written, per name (OK and KO together), when not null. */
  Map<String, List<Long>> written;

  public static SyntheticRecord run() {
    return new SyntheticRecord();
  }

  /** The simulation named in {@code run.json}. */
  public SyntheticRecord simulation(String name) {
    simulation = name;
    return this;
  }

  public SyntheticRecord seconds(int s) {
    seconds = s;
    return this;
  }

  public SyntheticRecord start(long epochMs) {
    startEpochMs = epochMs;
    return this;
  }

  public SyntheticRecord names(List<String> n) {
    names = n;
    return this;
  }

  public SyntheticRecord rate(int perName) {
    ratePerName = perName;
    return this;
  }

  public SyntheticRecord median(double micros) {
    medianMicros = s -> micros;
    return this;
  }

  public SyntheticRecord median(IntToDoubleFunction perSecond) {
    medianMicros = perSecond;
    return this;
  }

  public SyntheticRecord ko(double fraction) {
    koFraction = s -> fraction;
    return this;
  }

  /** The share of each second's requests that fail, second by second. */
  public SyntheticRecord ko(IntToDoubleFunction perSecond) {
    koFraction = perSecond;
    return this;
  }

  /** One request name's own rate, second by second (0: none sent in that second). */
  public SyntheticRecord rate(String name, java.util.function.IntUnaryOperator perSecond) {
    nameRates.put(name, perSecond);
    return this;
  }

  /** One request name's own share of KOs, second by second. */
  public SyntheticRecord ko(String name, IntToDoubleFunction perSecond) {
    nameKo.put(name, perSecond);
    return this;
  }

  /** The KO reasons, taken in turn: second s of the run records its KOs under reason s mod n. */
  public SyntheticRecord koReasons(String... reasons) {
    koReasons = List.of(reasons);
    return this;
  }

  public SyntheticRecord status(String s) {
    status = s;
    return this;
  }

  /** A status and its reason ({@code statusReason} in {@code run.json}). */
  public SyntheticRecord status(String s, String reason) {
    status = s;
    statusReason = reason;
    return this;
  }

  public SyntheticRecord seed(long s) {
    seed = s;
    return this;
  }

  public SyntheticRecord parameter(String name, Object value) {
    parameters.put(name, value);
    return this;
  }

  public SyntheticRecord check(String c) {
    checks.add(c);
    return this;
  }

  public SyntheticRecord gauge(String name, IntToDoubleFunction perSecond) {
    gauges.put(name, perSecond);
    return this;
  }

  public SyntheticRecord counter(String name, long perSecond) {
    countersPerSecond.put(name, perSecond);
    return this;
  }

  /**
   * A latency-like metric (such as {@code e2e events}): {@link #metricValuesPerSecond} values a
   * second around the given median (µs, per second), lognormal like the requests'.
   */
  public SyntheticRecord metric(String name, IntToDoubleFunction medianMicrosPerSecond) {
    metrics.put(name, medianMicrosPerSecond);
    return this;
  }

  /** Ends the run {@code seconds} into its last second, that second's counts scaled down. */
  public SyntheticRecord lastInterval(double seconds) {
    lastInterval = seconds;
    return this;
  }

  /** The bytes each request carries (recorded as its {@code bytes}), like a bulk or a message. */
  public SyntheticRecord bytes(long perRequest) {
    bytesPerRequest = perRequest;
    return this;
  }

  /** How many values each metric records per second (default 100). */
  public SyntheticRecord metricValues(int perSecond) {
    metricValuesPerSecond = perSecond;
    return this;
  }

  /** A health entry of {@code run.json}. */
  public SyntheticRecord health(String key, Object value) {
    health.put(key, value);
    return this;
  }

  public SyntheticRecord keepValues() {
    written = new LinkedHashMap<>();
    return this;
  }

  public SyntheticRecord pid(long p) {
    pid = p;
    return this;
  }

  /** Writes the record into {@code base/<id>} and returns that directory. */
  public Path write(Path base, String id) throws IOException {
    Path dir = Files.createDirectories(base.resolve(id));
    Random random = new Random(seed);
    try (PrintStream hlog =
            new PrintStream(
                Files.newOutputStream(dir.resolve("latency.hlog")),
                false,
                StandardCharsets.US_ASCII);
        Writer counters = Files.newBufferedWriter(dir.resolve("counters.jsonl"))) {
      HistogramLogWriter log = new HistogramLogWriter(hlog);
      log.outputLogFormatVersion();
      log.outputStartTime(startEpochMs);
      log.setBaseTime(startEpochMs);
      log.outputBaseTime(startEpochMs);
      log.outputLegend();
      Histogram ok = Latencies.newHistogram();
      Histogram ko = Latencies.newHistogram();
      Histogram lag = Latencies.newHistogram();
      for (int s = 0; s < seconds; s++) {
        double length = s == seconds - 1 ? lastInterval : 1;
        long end = startEpochMs + s * 1000L + Math.round(length * 1000);
        ObjectNode line = JSON.createObjectNode();
        line.put("t", end);
        line.put("elapsed", (end - startEpochMs) / 1000.0);
        line.put("interval", length);
        ObjectNode requests = line.putObject("requests");
        double median = medianMicros.applyAsDouble(s);
        for (String name : names) {
          int rate = nameRates.containsKey(name) ? nameRates.get(name).applyAsInt(s) : ratePerName;
          int perName = (int) Math.round(rate * length);
          double koShare = nameKo.getOrDefault(name, koFraction).applyAsDouble(s);
          ok.reset();
          ko.reset();
          for (int i = 0; i < perName; i++) {
            long v =
                Latencies.clampMicros(Math.round(median * Math.exp(0.3 * random.nextGaussian())));
            boolean failed = random.nextDouble() < koShare;
            (failed ? ko : ok).recordValue(v);
            if (written != null) {
              written.computeIfAbsent(name, n -> new ArrayList<>()).add(v);
            }
          }
          interval(log, ok, "req/OK/" + encode(name), s, length);
          interval(log, ko, "req/KO/" + encode(name), s, length);
          ObjectNode r = requests.putObject(name);
          r.put("sent", perName);
          r.put("ok", ok.getTotalCount());
          r.put("ko", ko.getTotalCount());
          if (bytesPerRequest > 0) {
            r.put("bytes", perName * bytesPerRequest);
          }
          if (ko.getTotalCount() > 0) {
            r.putObject("errors").put(koReasons.get(s % koReasons.size()), ko.getTotalCount());
          }
        }
        lag.reset();
        for (int i = 0; i < 100; i++) {
          lag.recordValue(50 + random.nextInt(200));
        }
        interval(log, lag, "metric/injector.lag", s, length);
        ObjectNode metricCounts = line.putObject("metrics");
        metricCounts.put("injector.lag", 100);
        for (Map.Entry<String, IntToDoubleFunction> m : metrics.entrySet()) {
          Histogram h = Latencies.newHistogram();
          double metricMedian = m.getValue().applyAsDouble(s);
          for (int i = 0; i < metricValuesPerSecond; i++) {
            h.recordValue(
                Latencies.clampMicros(
                    Math.round(metricMedian * Math.exp(0.3 * random.nextGaussian()))));
          }
          interval(log, h, "metric/" + encode(m.getKey()), s, length);
          metricCounts.put(m.getKey(), metricValuesPerSecond);
        }
        ObjectNode c = line.putObject("counters");
        countersPerSecond.forEach((name, n) -> c.put(name, Math.round(n * length)));
        ObjectNode g = line.putObject("gauges");
        final int second = s;
        gauges.forEach((name, f) -> g.put(name, f.applyAsDouble(second)));
        counters.write(JSON.writeValueAsString(line));
        counters.write('\n');
      }
    }
    ObjectNode root = JSON.createObjectNode();
    root.put("format", 1);
    root.put("runId", id);
    root.put("simulation", simulation);
    root.put("status", status);
    if (statusReason != null) {
      root.put("statusReason", statusReason);
    }
    root.put("start", Instant.ofEpochMilli(startEpochMs).toString());
    root.put("startEpochMs", startEpochMs);
    if (!status.equals("running")) {
      long end = startEpochMs + (seconds - 1) * 1000L + Math.round(lastInterval * 1000);
      root.put("end", Instant.ofEpochMilli(end).toString());
      root.put("endEpochMs", end);
      root.put("durationSeconds", (end - startEpochMs) / 1000.0);
    }
    root.set("parameters", JSON.valueToTree(parameters));
    ObjectNode injector = root.putObject("injector");
    injector.put("host", host);
    injector.put("pid", pid);
    injector.put("cores", 2);
    root.set("health", JSON.valueToTree(health));
    root.putArray("flags");
    if (!checks.isEmpty()) {
      root.set("checks", JSON.valueToTree(checks));
    }
    JSON.writeValue(dir.resolve("run.json").toFile(), root);
    if (status.equals("running")) {
      // a killed run: nothing written for a minute
      Files.setLastModifiedTime(
          dir.resolve("counters.jsonl"),
          java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000));
    }
    return dir;
  }

  private static void interval(
      HistogramLogWriter log, Histogram h, String tag, int s, double length) {
    if (h.getTotalCount() == 0) {
      return;
    }
    h.setTag(tag);
    log.outputIntervalHistogram(s, s + length, h, Latencies.MICROS_PER_MILLI);
  }

  private static String encode(String name) {
    return java.net.URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /**
   * Writes the benchmark's record: {@code args[0]} the base directory, {@code args[1]} seconds
   * (default 600), {@code args[2]} request names (default 20), {@code args[3]} requests per second
   * per name (default 100).
   */
  public static void main(String[] args) throws IOException {
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 600;
    int names = args.length > 2 ? Integer.parseInt(args[2]) : 20;
    int rate = args.length > 3 ? Integer.parseInt(args[3]) : 100;
    List<String> list = new ArrayList<>();
    for (int i = 0; i < names; i++) {
      list.add("request " + i);
    }
    SyntheticRecord record =
        run()
            .seconds(seconds)
            .names(list)
            .rate(rate)
            .ko(0.001)
            .gauge("system.cpu.user", s -> 30 + s % 7)
            .gauge("system.cpu.steal", s -> 1)
            .gauge("lag.orders", s -> 100 + s % 13)
            .counter("documents", 1000)
            .parameter("rate", names * rate);
    record.startEpochMs = System.currentTimeMillis() - seconds * 1000L;
    Path dir = record.write(Path.of(args[0]), "Bench-" + seconds + "s-" + names + "names");
    System.out.println(dir.toAbsolutePath());
  }
}
