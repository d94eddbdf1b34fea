package io.fusillade.reports.checks;

import io.fusillade.record.RequestTotals;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.RunData;
import org.HdrHistogram.Histogram;

/**
 * {@code p99 < 50ms}, {@code p95 <= 200ms for "account by id"}, {@code mean < 10ms}, {@code max <
 * 1s}: a latency statistic of all requests (OK and KO together, what clients experienced) or of one
 * request name.
 *
 * @param percentile 0–100, or -1 for the mean
 * @param limitMs the limit in milliseconds
 * @param request the request name, or null for all requests
 */
record LatencyCheck(
    String text,
    String statistic,
    double percentile,
    Comparator comparator,
    double limitMs,
    String request)
    implements Check {

  @Override
  public CheckResult evaluate(RunData run) {
    Histogram latencies;
    if (request == null) {
      latencies = run.allLatencies();
    } else {
      RequestTotals totals = run.requests().get(request);
      if (totals == null) {
        return CheckResult.of(text, false, "no requests named \"" + request + "\"", "");
      }
      latencies = totals.all();
    }
    if (latencies.getTotalCount() == 0) {
      return CheckResult.of(text, false, "no requests completed", "");
    }
    double measuredMs =
        (percentile < 0
                ? latencies.getMean()
                : percentile >= 100
                    ? latencies.getMaxValue()
                    : latencies.getValueAtPercentile(percentile))
            / 1000.0;
    boolean passed = comparator.holds(measuredMs, limitMs);
    String measured = statistic + " = " + Numbers.number(measuredMs) + " ms";
    return CheckResult.of(
        text,
        passed,
        measured,
        "limit " + comparator.symbol + " " + Numbers.number(limitMs) + " ms");
  }
}
