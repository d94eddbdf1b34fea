package io.fusillade.reports.runs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The distribution of one latency-like metric over a run (end-to-end latency of a topic, injector
 * lag...), in milliseconds, from its whole-run histogram: the same percentiles as a request's
 * ({@link RequestSummary}).
 *
 * @param name the metric's name, e.g. {@code e2e events}
 * @param count values recorded
 */
public record LatencySummary(
    String name,
    long count,
    double meanMs,
    double p50Ms,
    double p90Ms,
    double p95Ms,
    double p99Ms,
    double p999Ms,
    double maxMs) {

  /**
   * Summarises a histogram of microseconds.
   *
   * @param name the metric's name
   * @param micros its values, µs
   * @return the summary (zeros when the histogram is empty)
   */
  public static LatencySummary of(String name, Histogram micros) {
    long count = micros.getTotalCount();
    return new LatencySummary(
        name,
        count,
        count == 0 ? 0 : micros.getMean() / 1000.0,
        ms(micros, 50),
        ms(micros, 90),
        ms(micros, 95),
        ms(micros, 99),
        ms(micros, 99.9),
        count == 0 ? 0 : micros.getMaxValue() / 1000.0);
  }

  /**
   * Every metric of a run with at least one value (injector lag, end-to-end latency,
   * time-to-searchable...), summarised: the console's second table, the HTML report's "Other
   * distributions" and {@code summary.json}'s {@code distributions} list the same ones.
   *
   * @param run the run
   * @return one per metric, in the record's order
   */
  public static List<LatencySummary> all(RunData run) {
    List<LatencySummary> all = new ArrayList<>();
    run.metrics()
        .forEach(
            (name, histogram) -> {
              if (histogram.getTotalCount() > 0) {
                all.add(of(name, histogram));
              }
            });
    return all;
  }

  private static double ms(Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1000.0;
  }

  /**
   * The fields of {@code summary.json}: {@code count}, {@code meanMs}, {@code p50Ms}, {@code
   * p90Ms}, {@code p95Ms}, {@code p99Ms}, {@code p999Ms}, {@code maxMs} (the names of a request's).
   */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("count", count);
    m.put("meanMs", meanMs);
    m.put("p50Ms", p50Ms);
    m.put("p90Ms", p90Ms);
    m.put("p95Ms", p95Ms);
    m.put("p99Ms", p99Ms);
    m.put("p999Ms", p999Ms);
    m.put("maxMs", maxMs);
    return m;
  }
}
