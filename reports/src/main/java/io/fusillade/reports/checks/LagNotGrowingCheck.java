package io.fusillade.reports.checks;

import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.RunData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code lag not growing}: every consumer-lag gauge — named {@code lag.<name>}, or {@code
 * topic.<topic>.lag} as the topic protocol records it — must show no growing trend ({@link
 * TrendTest}) over the run, its first 10% left out as warm-up. A run without such gauges fails:
 * nothing shows the readers kept up.
 */
record LagNotGrowingCheck(String text) implements Check {
  /** The prefix of consumer-lag gauges. */
  static final String PREFIX = "lag.";

  /** Whether a gauge holds a consumer lag: {@code lag.*}, or a topic's {@code topic.*.lag}. */
  static boolean isLag(String gauge) {
    return gauge.startsWith(PREFIX) || (gauge.startsWith("topic.") && gauge.endsWith(".lag"));
  }

  private static final int MIN_POINTS = 10;

  @Override
  public CheckResult evaluate(RunData run) {
    List<String> measured = new ArrayList<>();
    List<String> why = new ArrayList<>();
    boolean passed = true;
    boolean any = false;
    for (Map.Entry<String, double[]> gauge : run.gauges().entrySet()) {
      if (!isLag(gauge.getKey())) {
        continue;
      }
      any = true;
      double[] values = present(gauge.getValue());
      int warmUp = values.length / 10;
      double[] tested = java.util.Arrays.copyOfRange(values, warmUp, values.length);
      if (tested.length < MIN_POINTS) {
        passed = false;
        String few = gauge.getKey() + ": only " + tested.length + " seconds, too few to judge";
        measured.add(few);
        why.add(few + " (the trend test needs " + MIN_POINTS + " after the first 10%)");
        continue;
      }
      TrendTest trend = TrendTest.of(tested);
      passed &= !trend.growing();
      measured.add(
          gauge.getKey()
              + (trend.growing() ? " growing" : " not growing")
              + ": Sen slope "
              + Numbers.number(trend.slopePerSecond())
              + "/s, growth "
              + Numbers.number(trend.growth())
              + " vs IQR "
              + Numbers.number(trend.interquartileRange())
              + ", Mann-Kendall "
              + Numbers.pValue(trend.pValue()));
      why.add(gauge.getKey() + " " + trend.explain(tested.length));
    }
    if (!any) {
      String none = "no consumer lag gauges (lag.* or topic.*.lag) in the run";
      return CheckResult.of(text, false, none, none + ": nothing shows the readers kept up");
    }
    return CheckResult.of(
        text,
        passed,
        String.join("; ", measured),
        String.join("; ", why)
            + "; growing means a Mann-Kendall p below "
            + TrendTest.ALPHA
            + " and a growth over the run (Sen's slope times its length) above the lag's"
            + " interquartile range, the first 10% of seconds left out");
  }

  private static double[] present(double[] values) {
    return java.util.Arrays.stream(values).filter(Double::isFinite).toArray();
  }

  @Override
  public java.util.Optional<String> inapplicable(RunShape shape) {
    return shape.topicReaders()
        ? java.util.Optional.empty()
        : java.util.Optional.of("the lag is that of topic readers, and this run reads no topic");
  }
}
