package io.fusillade.limit;

import io.fusillade.record.FailureClass;
import io.fusillade.record.Latencies;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Adds up the judged seconds of one step of a limit search, one flushed interval at a time, and
 * turns them into a {@link StepMeasure}. Not thread-safe: fed by the recorder's flushing thread.
 *
 * <p>Two trends are judged here, both on per-second values: the consumer lag (a gauge named {@code
 * lag.*} or {@code topic.*.lag}) grows when its Theil–Sen slope is above 2% of the step's rate; the
 * latency grows when the Theil–Sen slope of the seconds' median latencies, over the judged seconds,
 * adds more than their interquartile range (and 2 ms, and a quarter of the first third's median),
 * judged on five seconds or more. A system past its capacity queues what it cannot serve, and its
 * latency (counted from when each request was due) climbs all through the step; below it, both stay
 * level.
 */
final class StepStats {
  /** The lag slope, as a share of the rate, above which the lag is growing. */
  static final double LAG_GROWTH_SHARE = 0.02;

  private final double target;
  private final double injectorThresholdMs;
  private long requests;
  private long errors;
  private long injectorKo;
  private final Histogram ok = Latencies.newHistogram();
  private final Histogram second = Latencies.newHistogram();
  // by metric: the event loops' ticks and the pacer's arrivals are judged apart, so that many
  // punctual arrivals cannot hide late ticks in a shared p99
  private final Map<String, Histogram> injectorLags = new LinkedHashMap<>();
  private final List<Double> secondMedians = new ArrayList<>();
  private final Map<String, List<Double>> lags = new LinkedHashMap<>();
  private double seconds;
  private Double diskBytes;
  private Double diskPercent;
  private long diskErrors;
  private String diskError;

  StepStats(double target, double injectorThresholdMs) {
    this.target = target;
    this.injectorThresholdMs = injectorThresholdMs;
  }

  void request(Histogram okInterval, Histogram koInterval, Map<String, Long> reasons) {
    long okCount = okInterval == null ? 0 : okInterval.getTotalCount();
    long koCount = koInterval == null ? 0 : koInterval.getTotalCount();
    requests += okCount + koCount;
    if (okCount > 0) {
      ok.add(okInterval);
      second.add(okInterval);
    }
    for (Map.Entry<String, Long> reason : reasons.entrySet()) {
      if (FailureClass.of(reason.getKey()) == FailureClass.INJECTOR) {
        injectorKo += reason.getValue();
        requests -= reason.getValue();
      } else {
        errors += reason.getValue();
        if (LimitSlo.isDiskError(reason.getKey())) {
          diskErrors += reason.getValue();
          diskError = diskError == null ? reason.getKey() : diskError;
        }
      }
    }
  }

  void injectorLag(String metric, Histogram interval) {
    injectorLags.computeIfAbsent(metric, k -> Latencies.newHistogram()).add(interval);
  }

  void gauge(String name, double value) {
    if (!Double.isFinite(value)) {
      return;
    }
    if (name.startsWith("lag.") || (name.startsWith("topic.") && name.endsWith(".lag"))) {
      lags.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
    } else if (name.startsWith("directory.") && name.endsWith(".bytes")
        || name.startsWith("server.") && name.endsWith(".filesystem.used")) {
      diskBytes = diskBytes == null ? value : Math.max(diskBytes, value);
    } else if (name.startsWith("server.") && name.endsWith(".filesystem.use")
        || name.startsWith("directory.") && name.endsWith(".use")) {
      diskPercent = diskPercent == null ? value : Math.max(diskPercent, value);
    }
  }

  /** One judged second ended, {@code length} seconds long. */
  void secondEnd(double length) {
    seconds += length;
    if (second.getTotalCount() > 0) {
      secondMedians.add(second.getValueAtPercentile(50) / 1000.0);
    }
    second.reset();
  }

  StepMeasure measure() {
    return new StepMeasure(
        target,
        seconds,
        requests,
        errors,
        injectorKo,
        ok,
        injectorLags.values().stream()
            .filter(h -> h.getTotalCount() > 0)
            .mapToDouble(h -> h.getValueAtPercentile(99) / 1000.0)
            .boxed()
            .max(Double::compare)
            .orElse(null),
        injectorThresholdMs,
        lagVerdict(),
        latencyGrowth(),
        diskBytes,
        diskPercent,
        diskErrors,
        diskError);
  }

  /** The fewest judged seconds a latency trend is judged on: fewer say nothing but noise. */
  static final int MIN_TREND_SECONDS = 5;

  private String latencyGrowth() {
    int n = secondMedians.size();
    if (n < MIN_TREND_SECONDS) {
      return null;
    }
    double growth = slope(secondMedians) * (n - 1);
    double[] sorted = secondMedians.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    double iqr = sorted[(3 * (n - 1)) / 4] - sorted[(n - 1) / 4];
    double first = median(secondMedians.subList(0, Math.max(1, n / 3)));
    double last = median(secondMedians.subList(n - Math.max(1, n / 3), n));
    if (growth > Math.max(2, iqr) && growth > 0.25 * first) {
      return String.format(
          Locale.ROOT,
          "latency growing: p50 %s ms → %s ms",
          StepResult.number(first),
          StepResult.number(last));
    }
    return null;
  }

  private String lagVerdict() {
    if (lags.isEmpty()) {
      return null;
    }
    double worst = Double.NEGATIVE_INFINITY;
    for (List<Double> series : lags.values()) {
      if (series.size() >= 2) {
        worst = Math.max(worst, slope(series));
      }
    }
    if (worst == Double.NEGATIVE_INFINITY) {
      return null;
    }
    double bound = Math.max(1, LAG_GROWTH_SHARE * target);
    return worst > bound
        ? "growing " + StepResult.number(worst) + "/s"
        : "not growing (" + StepResult.number(worst) + "/s)";
  }

  /** The Theil–Sen slope per second: the median of the slopes between every two seconds. */
  static double slope(List<Double> series) {
    int n = series.size();
    double[] slopes = new double[n * (n - 1) / 2];
    int k = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        slopes[k++] = (series.get(j) - series.get(i)) / (j - i);
      }
    }
    Arrays.sort(slopes);
    return k % 2 == 1 ? slopes[k / 2] : (slopes[k / 2 - 1] + slopes[k / 2]) / 2;
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
