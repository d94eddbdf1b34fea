package io.fusillade.reports.checks;

import io.fusillade.record.Injected;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.RunData;
import java.util.Collection;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * {@code p99 < 50ms}, {@code p95 <= 200ms for "account by id"}, {@code mean < 10ms}, {@code max <
 * 1s}: a latency statistic of all requests (OK and KO together, what clients experienced) or of one
 * request name. A name that no request has may name a metric of the run instead, such as a topic's
 * end-to-end latency ({@code p99 < 50ms for "e2e events"}) or a node's latency ({@code sql node
 * primary}); a request of that name comes first.
 *
 * @param percentile 0–100, or -1 for the mean
 * @param limitMs the limit in milliseconds
 * @param request the request or metric name, or null for all requests
 */
record LatencyCheck(
    String text,
    String statistic,
    double percentile,
    Comparator comparator,
    double limitMs,
    String request)
    implements Check {
  /** The most names listed when a name is unknown. */
  private static final int MAX_NAMES = 20;

  @Override
  public CheckResult evaluate(RunData run) {
    Histogram latencies;
    String of;
    if (request == null && run.requests().keySet().stream().anyMatch(Injected::is)) {
      // the injected requests fail on purpose: the workload's own are judged
      latencies = io.fusillade.record.Latencies.newHistogram();
      long injected = 0;
      for (var totals : run.requests().values()) {
        if (!Injected.is(totals.name())) {
          latencies.add(totals.all());
        } else {
          injected += totals.count();
        }
      }
      of =
          "the workload's own "
              + Numbers.count(latencies.getTotalCount())
              + " requests (OK and KO; "
              + Numbers.count(injected)
              + " injected to fail left out)";
    } else if (request == null) {
      latencies = run.allLatencies();
      of = "all " + Numbers.count(latencies.getTotalCount()) + " requests (OK and KO)";
    } else if (run.requests().containsKey(request)) {
      latencies = run.requests().get(request).all();
      of =
          "the "
              + Numbers.count(latencies.getTotalCount())
              + " requests \""
              + request
              + "\" (OK and KO)";
    } else if (run.metrics().containsKey(request)) {
      latencies = run.metrics().get(request);
      of = "the " + Numbers.count(latencies.getTotalCount()) + " values of \"" + request + "\"";
    } else {
      String unknown = unknown(run);
      return CheckResult.of(text, false, unknown, unknown + ": nothing measured, nothing met");
    }
    if (latencies.getTotalCount() == 0) {
      String none =
          request != null && !run.requests().containsKey(request)
              ? "no values of metric \"" + request + "\""
              : "no requests completed";
      return CheckResult.of(text, false, none, none + ": nothing measured, nothing met");
    }
    double measuredMs =
        (percentile < 0
                ? latencies.getMean()
                : percentile >= 100
                    ? latencies.getMaxValue()
                    : latencies.getValueAtPercentile(percentile))
            / 1000.0;
    boolean passed = comparator.holds(measuredMs, limitMs);
    String value = Numbers.number(measuredMs) + " ms";
    return CheckResult.of(
        text,
        passed,
        statistic + " = " + value,
        statistic
            + " of "
            + of
            + " = "
            + value
            + ", "
            + comparator.against(passed, Numbers.number(limitMs) + " ms"));
  }

  /** What to say when the name is neither a request's nor a metric's: the names there are. */
  private String unknown(RunData run) {
    return "no request or metric named \""
        + request
        + "\" (requests: "
        + names(run.requests().keySet())
        + "; metrics: "
        + names(run.metrics().keySet())
        + ")";
  }

  private static String names(Collection<String> names) {
    if (names.isEmpty()) {
      return "none";
    }
    String listed =
        names.stream().limit(MAX_NAMES).map(n -> "\"" + n + "\"").collect(Collectors.joining(", "));
    return names.size() > MAX_NAMES
        ? listed + " and " + (names.size() - MAX_NAMES) + " more"
        : listed;
  }
}
