package io.fusillade.reports.checks;

import io.fusillade.record.FailureClass;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.RunData;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * {@code injector not saturated}: the verdict of the injector lag monitor in {@code run.json}
 * ({@code health.injectorLag.saturated}: its p99 above the threshold, 20 ms by default), for every
 * injector. A record without that verdict (a killed run) is judged from its {@code injector.lag}
 * metric against 20 ms; a record without lag measurements fails: nothing shows the injector kept
 * up. It also fails when any request failed for the injector's own reason ({@link
 * FailureClass#INJECTOR}: its queue full, not started on time, out of connections), naming how
 * many: such a KO is the injector's failure, never the system's, whatever the lag says.
 */
record InjectorCheck(String text) implements Check {
  private static final double DEFAULT_THRESHOLD_MS = 20;

  @Override
  public CheckResult evaluate(RunData run) {
    boolean passed = true;
    StringBuilder measured = new StringBuilder();
    for (RunRecord record : run.injectors()) {
      double p99;
      double threshold;
      boolean saturated;
      if (record.manifest().health().get("injectorLag") instanceof Map<?, ?> lag
          && lag.get("p99Ms") instanceof Number p
          && lag.get("thresholdMs") instanceof Number t) {
        p99 = p.doubleValue();
        threshold = t.doubleValue();
        saturated = Boolean.TRUE.equals(lag.get("saturated"));
      } else {
        Histogram h = record.metrics().get("injector.lag");
        if (h == null || h.getTotalCount() == 0) {
          return CheckResult.of(
              text, false, "no injector lag measured in " + record.manifest().runId(), "");
        }
        p99 = h.getValueAtPercentile(99) / 1000.0;
        threshold = DEFAULT_THRESHOLD_MS;
        saturated = p99 > threshold;
      }
      passed &= !saturated;
      if (measured.length() > 0) {
        measured.append(", ");
      }
      measured
          .append("injector lag p99 = ")
          .append(Numbers.number(p99))
          .append(" ms (threshold ")
          .append(Numbers.number(threshold))
          .append(" ms)");
    }
    long injectorKo = 0;
    for (RequestTotals totals : run.requests().values()) {
      injectorKo += FailureClass.counts(totals.errors()).get(FailureClass.INJECTOR);
    }
    if (injectorKo > 0) {
      passed = false;
      measured
          .append(measured.length() > 0 ? ", " : "")
          .append(injectorKo)
          .append(" injector-class KO");
    }
    return CheckResult.of(text, passed, measured.toString(), "");
  }
}
