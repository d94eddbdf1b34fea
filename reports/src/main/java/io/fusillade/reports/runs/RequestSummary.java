package io.fusillade.reports.runs;

import io.fusillade.record.RequestTotals;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One request name over a run. Latencies are in milliseconds, over OK and KO requests together
 * (what the clients experienced), measured from each request's intended start.
 *
 * @param rate completed requests per second in the steady state (see {@link SteadyRate})
 */
public record RequestSummary(
    String name,
    long count,
    long ok,
    long ko,
    long sent,
    double rate,
    double meanMs,
    double p50Ms,
    double p90Ms,
    double p95Ms,
    double p99Ms,
    double p999Ms,
    double maxMs,
    Map<String, Long> errors) {

  /** Summarises one request name's totals, with its rate computed by the caller. */
  public static RequestSummary of(RequestTotals totals, double rate) {
    Histogram all = totals.all();
    long count = all.getTotalCount();
    return new RequestSummary(
        totals.name(),
        count,
        totals.okCount(),
        totals.koCount(),
        totals.sent(),
        rate,
        count == 0 ? 0 : all.getMean() / 1000.0,
        percentileMs(all, 50),
        percentileMs(all, 90),
        percentileMs(all, 95),
        percentileMs(all, 99),
        percentileMs(all, 99.9),
        count == 0 ? 0 : all.getMaxValue() / 1000.0,
        totals.errors());
  }

  private static double percentileMs(Histogram histogram, double percentile) {
    return histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(percentile) / 1000.0;
  }
}
