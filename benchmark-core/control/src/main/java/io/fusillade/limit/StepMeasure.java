package io.fusillade.limit;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * What one step of a limit search measured in its judged seconds (after its warm-up): the figures
 * its objectives are judged on ({@link LimitSlo#failures}).
 *
 * @param target the rate the step was sent at, per second
 * @param seconds the judged seconds' length
 * @param requests requests that completed (OK or KO), the injector's own KO left out
 * @param errors KO the system or the network caused ({@link io.fusillade.record.FailureClass})
 * @param injectorKo KO the injector caused (its queue full, out of connections)
 * @param ok the OK requests' latencies in microseconds, from when each was due
 * @param injectorLagP99Ms the p99 of the injector's own lag, or null when not measured
 * @param injectorThresholdMs the injector lag above which the step is not trustworthy
 * @param lagVerdict the consumer lag's trend ("growing 120/s", "not growing"), or null when no
 *     consumer lag was measured
 * @param latencyGrowth why the latency is growing over the step, or null when it is not
 * @param diskBytes the most bytes the servers' disks held in the step ({@code directory.*.bytes} of
 *     a local server, {@code server.*.filesystem.used} of a monitored one), or null when none was
 *     measured
 * @param diskPercent the highest use, %, of a server's disk in the step: a monitored server's
 *     filesystem ({@code server.*.filesystem.use}) or an embedded cluster's disks of a chosen size
 *     ({@code directory.*.use}), or null when none was measured
 * @param diskErrors the step's KO whose reason is a server's disk error ({@link
 *     LimitSlo#isDiskError})
 * @param diskError the first such reason, or null when none
 */
public record StepMeasure(
    double target,
    double seconds,
    long requests,
    long errors,
    long injectorKo,
    Histogram ok,
    Double injectorLagP99Ms,
    double injectorThresholdMs,
    String lagVerdict,
    String latencyGrowth,
    Double diskBytes,
    Double diskPercent,
    long diskErrors,
    String diskError) {

  /** Completed requests per second. */
  public double achieved() {
    return seconds <= 0 ? 0 : requests / seconds;
  }

  /** The system's errors as a percentage of the completed requests. */
  public double errorPercent() {
    return requests == 0 ? 0 : 100.0 * errors / requests;
  }

  /** OK requests. */
  public long okCount() {
    return ok.getTotalCount();
  }

  /** A percentile of the OK requests' latency, in milliseconds (0 without any). */
  public double percentileMs(double percentile) {
    if (ok.getTotalCount() == 0) {
      return 0;
    }
    return (percentile >= 100 ? ok.getMaxValue() : ok.getValueAtPercentile(percentile)) / 1000.0;
  }

  /**
   * Why the injector cannot vouch for this step, or null when it can: it failed requests itself, or
   * its own threads lagged beyond the threshold.
   */
  public String injectorProblem() {
    if (injectorKo > 0) {
      return injectorKo + " injector-class KO";
    }
    if (injectorLagP99Ms != null && injectorLagP99Ms > injectorThresholdMs) {
      return String.format(
          Locale.ROOT,
          "injector lag p99 %s ms > %s ms",
          StepResult.number(injectorLagP99Ms),
          StepResult.number(injectorThresholdMs));
    }
    return null;
  }
}
