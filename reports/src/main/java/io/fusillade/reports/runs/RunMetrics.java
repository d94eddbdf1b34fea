package io.fusillade.reports.runs;

import io.fusillade.FusilladeException;
import io.fusillade.limit.LimitResult;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunFiles;
import io.fusillade.reports.stats.Metric;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * The numbers that describe one run for statistics over runs ({@code intervals}, {@code compare},
 * {@code trend}):
 *
 * <ul>
 *   <li>{@code rate} (completed requests/s in the steady state; left out for a run too short to
 *       have one, whose rate is its start-up and drain), {@code mean}, {@code p50}, {@code p90},
 *       {@code p99}, {@code p99.9} (ms, all requests) and {@code errors} (% of requests that
 *       failed);
 *   <li>with more than one request name, {@code rate}, {@code p50} and {@code p99} of each, named
 *       {@code p99 [account by id]};
 *   <li>{@code MB/s} when requests carried bytes, and {@code <counter>/s} for every counter (such
 *       as documents or messages): the total over the run's duration;
 *   <li>{@code p50} and {@code p99} of every topic's end-to-end latency, named {@code p99 [e2e
 *       events]}, and of a log store's time-to-searchable ({@code p99 [time-to-searchable]});
 *   <li>{@code adaptive settled rate}: the rate an adaptive run settled at in its last minute.
 *   <li>{@code limit}: a limit search's maximum sustainable rate (or the maximum it was allowed,
 *       when the system sustained it), so {@code trend} follows the limit across builds.
 * </ul>
 *
 * Rates and counters are better higher; latencies and errors better lower.
 */
public final class RunMetrics {
  /**
   * The log store's time-to-searchable metric (the logs protocol's {@code SearchabilityProbe}: the
   * reports do not depend on that module, the record's name is the contract).
   */
  public static final String TIME_TO_SEARCHABLE = "time-to-searchable";

  /** The metric of an adaptive run's settled rate. */
  public static final String ADAPTIVE_SETTLED = "adaptive settled rate";

  private RunMetrics() {}

  /**
   * The metrics of a run, in a stable order.
   *
   * @param run the run
   * @return by metric name
   */
  public static Map<String, MetricValue> of(RunData run) {
    Map<String, MetricValue> m = new LinkedHashMap<>();
    // A run too short for a steady state has no rate worth comparing (see SteadyRate).
    boolean steady = run.injectors().stream().allMatch(SteadyRate::hasSteadyState);
    if (steady) {
      put(m, Metric.higherIsBetter("rate"), run.rate(null), "/s");
    }
    Histogram all = run.allLatencies();
    latencies(m, "", all);
    long ko = 0;
    long count = 0;
    long bytes = 0;
    for (RequestTotals t : run.requests().values()) {
      ko += t.koCount();
      count += t.count();
      bytes += t.bytes();
    }
    put(m, Metric.lowerIsBetter("errors"), count == 0 ? 0 : 100.0 * ko / count, "%");
    double seconds = run.durationSeconds();
    if (bytes > 0 && seconds > 0) {
      put(m, Metric.higherIsBetter("MB/s"), bytes / seconds / 1e6, "MB/s");
    }
    run.counters()
        .forEach(
            (name, perSecond) -> {
              long total = 0;
              for (long v : perSecond) {
                total += v;
              }
              if (seconds > 0) {
                put(m, Metric.higherIsBetter(name + "/s"), total / seconds, "/s");
              }
            });
    if (run.requests().size() > 1) {
      run.requests()
          .forEach(
              (name, totals) -> {
                if (steady) {
                  put(m, Metric.higherIsBetter("rate [" + name + "]"), run.rate(name), "/s");
                }
                Histogram h = totals.all();
                if (h.getTotalCount() > 0) {
                  put(m, Metric.lowerIsBetter("p50 [" + name + "]"), ms(h, 50), "ms");
                  put(m, Metric.lowerIsBetter("p99 [" + name + "]"), ms(h, 99), "ms");
                }
              });
    }
    // A limit search's result, for trend and compare: the rate found, or the maximum sustained.
    LimitResults.of(run)
        .filter(r -> r.limit() != null || r.verdict() == LimitResult.Verdict.ABOVE_MAX)
        .ifPresent(
            r ->
                put(
                    m,
                    Metric.higherIsBetter("limit"),
                    r.limit() != null ? r.limit() : r.sustained(),
                    "/s"));
    // An adaptive run's settled rate (its last minute's), for trend and compare: the capacity
    // it followed, build after build.
    AdaptiveResults.of(run)
        .ifPresent(r -> put(m, Metric.higherIsBetter(ADAPTIVE_SETTLED), r.settledRate(), "/s"));
    run.metrics()
        .forEach(
            (name, h) -> {
              boolean ofTheSystem =
                  name.startsWith(TopicResults.E2E_PREFIX) || name.equals(TIME_TO_SEARCHABLE);
              if (ofTheSystem && h.getTotalCount() > 0) {
                put(m, Metric.lowerIsBetter("p50 [" + name + "]"), ms(h, 50), "ms");
                put(m, Metric.lowerIsBetter("p99 [" + name + "]"), ms(h, 99), "ms");
              }
            });
    return m;
  }

  private static void latencies(Map<String, MetricValue> m, String suffix, Histogram h) {
    if (h.getTotalCount() == 0) {
      return;
    }
    put(m, Metric.lowerIsBetter("mean" + suffix), h.getMean() / 1000.0, "ms");
    for (double p : new double[] {50, 90, 99, 99.9}) {
      String name = "p" + (p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p));
      put(m, Metric.lowerIsBetter(name + suffix), ms(h, p), "ms");
    }
  }

  private static double ms(Histogram h, double percentile) {
    return h.getValueAtPercentile(percentile) / 1000.0;
  }

  private static void put(Map<String, MetricValue> m, Metric metric, double value, String unit) {
    if (Double.isFinite(value)) {
      m.put(metric.name(), new MetricValue(metric, value, unit));
    }
  }

  /**
   * The run directories named: a run directory stands for itself; any other directory for the run
   * directories directly inside it. Sorted by start time within each directory given.
   *
   * @param paths directories
   * @return run directories
   * @throws FusilladeException when a path is not a directory or holds no run
   */
  public static List<Path> runDirectories(List<Path> paths) {
    List<Path> runs = new ArrayList<>();
    for (Path path : paths) {
      if (!Files.isDirectory(path)) {
        throw new FusilladeException(
            (Files.exists(path) ? "not a directory: " : "no such directory: ") + path);
      }
      if (Files.isRegularFile(path.resolve(RunFiles.MANIFEST))) {
        runs.add(path);
        continue;
      }
      List<Path> inside;
      try (Stream<Path> children = Files.list(path)) {
        inside =
            children
                .filter(p -> Files.isRegularFile(p.resolve(RunFiles.MANIFEST)))
                .sorted(Comparator.comparing(Path::getFileName))
                .toList();
      } catch (IOException e) {
        throw new FusilladeException("cannot list " + path + ": " + e.getMessage(), e);
      }
      if (inside.isEmpty()) {
        throw new FusilladeException(
            "no run record in " + path + ": no " + RunFiles.MANIFEST + " in it or directly below");
      }
      runs.addAll(inside);
    }
    return runs;
  }

  /**
   * Loads each run directory as one run.
   *
   * @param paths run directories or directories of runs
   * @return the runs, ordered by start time
   */
  public static List<RunData> load(List<Path> paths) {
    List<RunData> runs = new ArrayList<>();
    for (Path dir : runDirectories(paths)) {
      runs.add(RunData.load(dir));
    }
    runs.sort(Comparator.comparingLong(RunData::startEpochMs));
    return runs;
  }
}
