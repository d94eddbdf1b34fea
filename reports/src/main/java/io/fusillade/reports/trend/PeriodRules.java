package io.fusillade.reports.trend;

import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.stats.Comparison;
import io.fusillade.reports.stats.Verdict;
import io.fusillade.reports.stats.changepoint.ChangePoint;

/**
 * The rule behind each verdict of a {@link PeriodReport}, in words: a verdict is a claim to a user,
 * and the line that makes it says what decided it.
 */
final class PeriodRules {
  /** What makes a period's delivery exact. */
  static final String EXACT =
      "exact: no acknowledged message lost, duplicated or out of order in any run of the period";

  private PeriodRules() {}

  /** A metric's verdict: Welch's test against alpha, the change against the threshold. */
  static String welch(Comparison c, Comparison.Settings settings) {
    String threshold = Numbers.percent(settings.threshold()).replace(".0%", "%");
    String alpha = plain(settings.alpha());
    if (!c.test().defined()) {
      return "not tested: Welch's t-test needs 2 runs in each period (previous "
          + c.test().baseline().n()
          + ", this period "
          + c.test().candidate().n()
          + ")";
    }
    double change = c.relativeChange();
    String p = Numbers.pValue(c.pValue());
    String size =
        Double.isInfinite(change)
            ? "the change from 0 beyond any threshold"
            : "the change " + Numbers.signedPercent(change);
    boolean beyond = Math.abs(change) > settings.threshold();
    if (c.significant() && beyond) {
      return "Welch's t-test "
          + p
          + " < α "
          + alpha
          + " and "
          + size
          + (Double.isInfinite(change) ? "" : " beyond the " + threshold + " threshold");
    }
    if (c.significant()) {
      return "Welch's t-test "
          + p
          + " < α "
          + alpha
          + ", but "
          + size
          + " within the "
          + threshold
          + " threshold";
    }
    return "Welch's t-test " + p + " ≥ α " + alpha + ": not significant";
  }

  /** A topic's delivery verdict. */
  static String delivery(
      PeriodReport.DeliveryTotals before, PeriodReport.DeliveryTotals after, Verdict verdict) {
    String what;
    if (after.runs() == 0) {
      what = "no run of this period recorded it";
    } else if (verdict == Verdict.WORSE) {
      what =
          "not exact in this period, "
              + (before.runs() == 0 ? "no run of the previous one recorded it" : "exact before");
    } else if (verdict == Verdict.BETTER) {
      what = "exact in this period, not before";
    } else if (after.exact()) {
      what = before.runs() == 0 ? "exact in this period" : "exact in both periods";
    } else {
      what = "not exact in either period";
    }
    return what + " (" + EXACT + ")";
  }

  /** A change point's verdict: its permutation test, and its size against the threshold. */
  static String changePoint(
      ChangePoint c,
      double alpha,
      double perMetricAlpha,
      int metrics,
      Comparison.Settings settings,
      Verdict verdict) {
    String threshold = Numbers.percent(settings.threshold()).replace(".0%", "%");
    StringBuilder s =
        new StringBuilder("E-divisive change point, permutation ")
            .append(Numbers.pValue(c.pValue()))
            .append(" ≤ ")
            .append(plain(perMetricAlpha));
    if (metrics > 1) {
      s.append(" (α ")
          .append(plain(alpha))
          .append(" over ")
          .append(metrics)
          .append(" metrics, Bonferroni)");
    }
    s.append(", and the change ")
        .append(Numbers.signedPercent(c.relativeChange()))
        .append(verdict == Verdict.NO_SIGNIFICANT_CHANGE ? " within" : " beyond")
        .append(" the ")
        .append(threshold)
        .append(" threshold");
    return s.toString();
  }

  /** A significance level as typed: 0.05, and 0.005556 for 0.05 / 9. */
  static String plain(double alpha) {
    return new java.math.BigDecimal(alpha)
        .round(new java.math.MathContext(4))
        .stripTrailingZeros()
        .toPlainString();
  }
}
