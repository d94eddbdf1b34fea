package io.fusillade.gatling.metrics;

import io.fusillade.health.InjectorLagMonitor;
import io.fusillade.record.FailureClass;
import io.fusillade.record.FlushListener;
import io.fusillade.record.RunStatus;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A run's totals as Prometheus metrics: fed once a second by the recorder's flush ({@link
 * FlushListener}, nothing per request), read by the scrapes ({@link MultiCollector}). The numbers
 * are those of the run record: a scrape after the last flush shows the record's totals.
 *
 * <p>Latencies are classic histograms with fixed buckets ({@link #BUCKETS_SECONDS}), not native
 * ones: the text format that Prometheus scrapes by default, and any Prometheus or Grafana without
 * the native-histogram feature, can read them, and {@code histogram_quantile} works on them. The
 * exact percentiles are the run record's (HdrHistogram); the buckets are for watching. A latency
 * goes in the bucket of its HdrHistogram value (within 1% of the measured one), so the counts equal
 * the record's exactly.
 */
final class RunMetrics implements FlushListener, MultiCollector {
  /** The latency buckets' upper bounds, in seconds (then +Inf). */
  static final double[] BUCKETS_SECONDS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60
  };

  private static final double[] BOUNDS = withInfinity(BUCKETS_SECONDS);
  private static final long[] BOUNDS_MICROS =
      Arrays.stream(BUCKETS_SECONDS).mapToLong(s -> Math.round(s * 1e6)).toArray();
  private static final String TOPIC_LAG_PREFIX = "topic.";
  private static final String TOPIC_LAG_SUFFIX = ".lag";
  private static final String LAG_PREFIX = "lag.";

  private final String runId;
  private final String simulation;
  private final InjectionSchedule schedule;

  // All guarded by this: written by the flusher, read by the scrapes.
  private final Map<String, long[]> requests = new TreeMap<>(); // sent, ok, ko
  private final Map<List<String>, Long> errors = new TreeMap<>(RunMetrics::compareLists);
  private final Map<List<String>, Buckets> latencies = new TreeMap<>(RunMetrics::compareLists);
  private final Map<String, Buckets> metrics = new TreeMap<>();
  private final Map<String, Double> metricMax = new TreeMap<>();
  private final Map<String, Long> counters = new TreeMap<>();
  private final Map<String, Double> gauges = new TreeMap<>();
  private double elapsedSeconds;
  private RunStatus status = RunStatus.RUNNING;

  RunMetrics(String runId, String simulation, InjectionSchedule schedule) {
    this.runId = runId;
    this.simulation = simulation;
    this.schedule = schedule;
  }

  private static double[] withInfinity(double[] bounds) {
    double[] all = Arrays.copyOf(bounds, bounds.length + 1);
    all[bounds.length] = Double.POSITIVE_INFINITY;
    return all;
  }

  private static int compareLists(List<String> a, List<String> b) {
    return String.join("\u0000", a).compareTo(String.join("\u0000", b));
  }

  /** Cumulative bucket counts and sum of one histogram series. */
  private static final class Buckets {
    final long[] counts = new long[BOUNDS.length];
    double sumSeconds;

    void add(Histogram interval) {
      for (HistogramIterationValue v : interval.recordedValues()) {
        long micros = v.getValueIteratedTo();
        long count = v.getCountAtValueIteratedTo();
        int i = Arrays.binarySearch(BOUNDS_MICROS, micros);
        counts[i >= 0 ? i : -i - 1] += count;
        sumSeconds += micros / 1e6 * count;
      }
    }

    long total() {
      long total = 0;
      for (long c : counts) {
        total += c;
      }
      return total;
    }
  }

  // --- fed by the recorder ---

  @Override
  public synchronized void request(
      String name, long sent, Histogram ok, Histogram ko, Map<String, Long> reasons) {
    long[] totals = requests.computeIfAbsent(name, n -> new long[3]);
    totals[0] += sent;
    totals[1] += ok.getTotalCount();
    if (ok.getTotalCount() > 0) {
      latencies.computeIfAbsent(List.of(name, "ok"), k -> new Buckets()).add(ok);
    }
    if (ko != null && ko.getTotalCount() > 0) {
      totals[2] += ko.getTotalCount();
      latencies.computeIfAbsent(List.of(name, "ko"), k -> new Buckets()).add(ko);
    }
    reasons.forEach(
        (reason, count) ->
            errors.merge(List.of(name, reason, FailureClass.of(reason).label()), count, Long::sum));
  }

  @Override
  public synchronized void metric(String name, Histogram interval) {
    metrics.computeIfAbsent(name, n -> new Buckets()).add(interval);
    metricMax.put(name, interval.getMaxValue() / 1e6);
  }

  @Override
  public synchronized void counter(String name, long delta) {
    counters.merge(name, delta, Long::sum);
  }

  @Override
  public synchronized void gauge(String name, double value) {
    gauges.put(name, value);
  }

  @Override
  public synchronized void intervalEnd(long epochMs, double elapsed) {
    elapsedSeconds = elapsed;
  }

  @Override
  public synchronized void closed(RunStatus how) {
    status = how;
  }

  // --- read by the scrapes ---

  @Override
  public synchronized MetricSnapshots collect() {
    List<MetricSnapshot> out = new ArrayList<>();
    Labels run = Labels.of("run_id", runId, "simulation", simulation);
    out.add(
        gauge(
            "fusillade_run_info",
            "The run being watched: 1 while it runs, 0 once it ended (label status).",
            List.of(
                GaugeDataPointSnapshot.builder()
                    .labels(run.add("status", status.jsonName()))
                    .value(status == RunStatus.RUNNING ? 1 : 0)
                    .build())));
    out.add(
        GaugeSnapshot.builder()
            .name("fusillade_run_elapsed_seconds")
            .help("Time since the run opened, at the last flush.")
            .unit(Unit.SECONDS)
            .dataPoint(GaugeDataPointSnapshot.builder().value(elapsedSeconds).build())
            .build());

    List<CounterDataPointSnapshot> sent = new ArrayList<>();
    List<CounterDataPointSnapshot> done = new ArrayList<>();
    requests.forEach(
        (name, t) -> {
          sent.add(counterPoint(Labels.of("request", name), t[0]));
          done.add(counterPoint(Labels.of("request", name, "status", "ok"), t[1]));
          done.add(counterPoint(Labels.of("request", name, "status", "ko"), t[2]));
        });
    out.add(counter("fusillade_requests_sent", "Requests sent (entered), by request name.", sent));
    out.add(
        counter(
            "fusillade_requests", "Requests answered, by request name and status (ok, ko).", done));
    List<CounterDataPointSnapshot> errorPoints = new ArrayList<>();
    errors.forEach(
        (k, count) ->
            errorPoints.add(
                counterPoint(
                    Labels.of("request", k.get(0), "reason", k.get(1), "class", k.get(2)), count)));
    out.add(
        counter(
            "fusillade_errors",
            "Failed requests by request name, reason and failure class (server, network,"
                + " injector).",
            errorPoints));
    out.add(
        histogram(
            "fusillade_request_latency_seconds",
            "Request latency from the intended start, by request name and status.",
            latencies,
            k -> Labels.of("request", k.get(0), "status", k.get(1))));
    out.add(
        histogram(
            "fusillade_metric_seconds",
            "Latency-like metrics that are not requests: injector lag (metric=\""
                + InjectorLagMonitor.METRIC
                + "\"), end-to-end latency of topics, SQL node latency.",
            metrics,
            name -> Labels.of("metric", name)));
    List<GaugeDataPointSnapshot> maxes = new ArrayList<>();
    metricMax.forEach((name, max) -> maxes.add(gaugePoint(Labels.of("metric", name), max)));
    out.add(
        gauge(
            "fusillade_metric_max_seconds",
            "The largest value of each latency-like metric in the last flushed second.",
            maxes));
    Double lag = metricMax.get(InjectorLagMonitor.METRIC);
    out.add(
        gauge(
            "fusillade_injector_lag_seconds",
            "The injector's largest scheduling lag in the last flushed second.",
            lag == null ? List.of() : List.of(gaugePoint(Labels.EMPTY, lag))));

    List<GaugeDataPointSnapshot> consumerLag = new ArrayList<>();
    List<GaugeDataPointSnapshot> other = new ArrayList<>();
    gauges.forEach(
        (name, value) -> {
          String topic = consumerLagTopic(name);
          if (topic != null) {
            consumerLag.add(gaugePoint(Labels.of("topic", topic), value));
          } else {
            other.add(gaugePoint(Labels.of("name", name), value));
          }
        });
    out.add(
        gauge(
            "fusillade_consumer_lag_records",
            "Records produced and not yet consumed, by topic, sampled once a second.",
            consumerLag));
    out.add(
        gauge(
            "fusillade_gauge",
            "The run record's other gauges (CPU, memory, pools), by name, sampled once a second.",
            other));
    List<CounterDataPointSnapshot> counterPoints = new ArrayList<>();
    counters.forEach(
        (name, total) -> counterPoints.add(counterPoint(Labels.of("name", name), total)));
    out.add(counter("fusillade_counter", "The run record's counters, by name.", counterPoints));

    List<GaugeDataPointSnapshot> steps = new ArrayList<>();
    List<GaugeDataPointSnapshot> targets = new ArrayList<>();
    if (status == RunStatus.RUNNING) {
      for (InjectionSchedule.Now now : schedule.at(elapsedSeconds)) {
        Labels labels = Labels.of("scenario", now.scenario());
        steps.add(gaugePoint(labels, now.step()));
        targets.add(gaugePoint(labels, now.targetRate()));
      }
    }
    out.add(
        gauge(
            "fusillade_injection_step",
            "The injection profile's step in progress (1 for the first, 0 once done), by"
                + " scenario; from the run's elapsed time.",
            steps));
    out.add(
        gauge(
            "fusillade_injection_target_rate",
            "The target arrival rate (requests per second) of the step in progress, by scenario.",
            targets));
    return new MetricSnapshots(out);
  }

  /**
   * The topic of a consumer-lag gauge, as the reports read them ({@code topic.<t>.lag} from the
   * topic client, {@code lag.<t>} from the topic protocols), or null for another gauge.
   */
  static String consumerLagTopic(String gauge) {
    if (gauge.startsWith(TOPIC_LAG_PREFIX)
        && gauge.endsWith(TOPIC_LAG_SUFFIX)
        && gauge.length() > TOPIC_LAG_PREFIX.length() + TOPIC_LAG_SUFFIX.length()) {
      return gauge.substring(TOPIC_LAG_PREFIX.length(), gauge.length() - TOPIC_LAG_SUFFIX.length());
    }
    if (gauge.startsWith(LAG_PREFIX) && gauge.length() > LAG_PREFIX.length()) {
      return gauge.substring(LAG_PREFIX.length());
    }
    return null;
  }

  private static CounterDataPointSnapshot counterPoint(Labels labels, double value) {
    return CounterDataPointSnapshot.builder().labels(labels).value(value).build();
  }

  private static GaugeDataPointSnapshot gaugePoint(Labels labels, double value) {
    return GaugeDataPointSnapshot.builder().labels(labels).value(value).build();
  }

  private static CounterSnapshot counter(
      String name, String help, List<CounterDataPointSnapshot> points) {
    CounterSnapshot.Builder builder = CounterSnapshot.builder().name(name).help(help);
    points.forEach(builder::dataPoint);
    return builder.build();
  }

  private static GaugeSnapshot gauge(
      String name, String help, List<GaugeDataPointSnapshot> points) {
    GaugeSnapshot.Builder builder = GaugeSnapshot.builder().name(name).help(help);
    points.forEach(builder::dataPoint);
    return builder.build();
  }

  private static <K> HistogramSnapshot histogram(
      String name, String help, Map<K, Buckets> series, Function<K, Labels> labels) {
    HistogramSnapshot.Builder builder =
        HistogramSnapshot.builder().name(name).help(help).unit(Unit.SECONDS);
    series.forEach(
        (key, buckets) ->
            builder.dataPoint(
                HistogramDataPointSnapshot.builder()
                    .labels(labels.apply(key))
                    .classicHistogramBuckets(
                        ClassicHistogramBuckets.of(BOUNDS, buckets.counts.clone()))
                    .sum(buckets.sumSeconds)
                    .build()));
    return builder.build();
  }
}
