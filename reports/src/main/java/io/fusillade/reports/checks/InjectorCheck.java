package io.fusillade.reports.checks;

import io.fusillade.health.InjectorLagMonitor.InjectorHealth;
import io.fusillade.record.FailureClass;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.RunData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * {@code injector not saturated}: the verdict of the injector lag monitor in {@code run.json}
 * ({@code health.injectorLag.saturated}), for every injector. The monitor calls an injector
 * saturated when its lag p99 (the warm-up left out) is above the threshold, 20 ms by default,
 * <em>and</em> at least {@value InjectorHealth#MIN_LATE_TICKS} ticks per event loop were later than
 * it: over a short run the p99 is a single tick, which another process on the machine can delay.
 * The line states both numbers, so that a pass with a p99 above the threshold says why it passed.
 *
 * <p>A record without that verdict (a killed run) is judged from its {@code injector.lag} metric
 * against 20 ms, warm-up included; a record without lag measurements fails: nothing shows the
 * injector kept up. It also fails when any request failed for the injector's own reason ({@link
 * FailureClass#INJECTOR}: its queue full, not started on time, out of connections), naming how
 * many: such a KO is the injector's failure, never the system's, whatever the lag says.
 */
record InjectorCheck(String text) implements Check {
  private static final double DEFAULT_THRESHOLD_MS = 20;

  @Override
  public CheckResult evaluate(RunData run) {
    boolean passed = true;
    List<String> measured = new ArrayList<>();
    List<String> why = new ArrayList<>();
    boolean several = run.injectors().size() > 1;
    for (RunRecord record : run.injectors()) {
      String who = several ? record.manifest().runId() + ": " : "";
      double p99;
      double threshold;
      boolean saturated;
      String sentence;
      if (record.manifest().health().get("injectorLag") instanceof Map<?, ?> lag
          && lag.get("p99Ms") instanceof Number p
          && lag.get("thresholdMs") instanceof Number t) {
        p99 = p.doubleValue();
        threshold = t.doubleValue();
        saturated = Boolean.TRUE.equals(lag.get("saturated"));
        sentence = judged(lag, p99, threshold, saturated);
      } else {
        Histogram h = record.metrics().get("injector.lag");
        if (h == null || h.getTotalCount() == 0) {
          String none = "no injector lag measured in " + record.manifest().runId();
          return CheckResult.of(
              text, false, none, none + ": nothing shows the injector kept to its schedule");
        }
        p99 = h.getValueAtPercentile(99) / 1000.0;
        threshold = DEFAULT_THRESHOLD_MS;
        saturated = p99 > threshold;
        sentence =
            "lag p99 "
                + ms(p99)
                + " over "
                + Numbers.count(h.getTotalCount())
                + " ticks (warm-up included: the record has no verdict of its own) is "
                + (saturated ? "" : "not ")
                + "above "
                + ms(threshold);
      }
      passed &= !saturated;
      measured.add(who + "injector lag p99 = " + ms(p99) + " (threshold " + ms(threshold) + ")");
      why.add(who + sentence);
    }
    long injectorKo = 0;
    for (RequestTotals totals : run.requests().values()) {
      injectorKo += FailureClass.counts(totals.errors()).get(FailureClass.INJECTOR);
    }
    String kos;
    if (injectorKo > 0) {
      passed = false;
      measured.add(injectorKo + " injector-class KO");
      kos =
          Numbers.count(injectorKo)
              + " requests failed for the injector's own reason (injector-class KO: queue full,"
              + " not started on time, out of connections), which fails the check whatever the lag";
    } else {
      kos = "no request failed for the injector's own reason";
    }
    return CheckResult.of(
        text, passed, String.join(", ", measured), String.join("; ", why) + "; " + kos);
  }

  /**
   * The monitor's verdict in words, with the numbers it read: the p99 against the threshold, and
   * when the p99 is above it, the late ticks against the {@value InjectorHealth#MIN_LATE_TICKS} per
   * event loop that saturation needs.
   */
  private static String judged(Map<?, ?> lag, double p99, double threshold, boolean saturated) {
    StringBuilder s = new StringBuilder("lag p99 ").append(ms(p99));
    if (lag.get("ticks") instanceof Number ticks) {
      s.append(" over ").append(Numbers.count(ticks.longValue())).append(" ticks");
      if (lag.get("warmUpMs") instanceof Number warmUp && warmUp.doubleValue() > 0) {
        s.append(" (the first ").append(seconds(warmUp.doubleValue())).append(" left out)");
      }
    }
    if (!(p99 > threshold)) {
      return s.append(" is not above ")
          .append(ms(threshold))
          .append(" (saturated needs the p99 above it)")
          .toString();
    }
    s.append(" is above ").append(ms(threshold));
    Number late = lag.get("lateTicks") instanceof Number n ? n : null;
    int loops = lag.get("eventLoops") instanceof Number n ? Math.max(1, n.intValue()) : 1;
    long needed = (long) InjectorHealth.MIN_LATE_TICKS * loops;
    String rule =
        "saturated needs the p99 above "
            + ms(threshold)
            + " and at least "
            + InjectorHealth.MIN_LATE_TICKS
            + " late ticks per event loop"
            + (lag.get("eventLoops") instanceof Number
                ? " (" + needed + " for " + loops + (loops == 1 ? " loop)" : " loops)")
                : "");
    if (late == null) {
      // a record of an older version: the monitor's count of late ticks was not written
      return s.append(saturated ? ", and " : ", but ")
          .append(saturated ? "enough" : "too few")
          .append(" ticks were later than it; ")
          .append(rule)
          .toString();
    }
    return s.append(saturated ? " and " : ", but only ")
        .append(Numbers.count(late.longValue()))
        .append(late.longValue() == 1 ? " tick was" : " ticks were")
        .append(" later than it; ")
        .append(rule)
        .toString();
  }

  private static String ms(double value) {
    return Numbers.number(value) + " ms";
  }

  private static String seconds(double ms) {
    return Numbers.number(ms / 1000) + " s";
  }
}
