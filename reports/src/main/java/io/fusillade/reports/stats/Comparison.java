package io.fusillade.reports.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The verdict on one metric between baseline runs and candidate runs.
 *
 * <p>The verdict is {@link Verdict#WORSE} only when the change is <em>both</em> statistically
 * significant (Welch's p-value below {@code alpha}) <em>and</em> beyond the threshold (the relative
 * change of the means, as a point estimate, exceeds {@code threshold} in absolute value) in the bad
 * direction of the metric. {@link Verdict#BETTER} is the mirror image. Everything else is {@link
 * Verdict#NO_SIGNIFICANT_CHANGE}, including:
 *
 * <ul>
 *   <li>a significant change within the threshold: real but too small to matter. {@link
 *       #significant()} is then true and the reason says "significant, but within the 5%
 *       threshold", so a report can show it as a note without failing a build;
 *   <li>fewer than 2 runs on a side: nothing can be tested; the reason says so.
 * </ul>
 *
 * <p>Significance alone would flag tiny, irrelevant changes once runs are very stable; a threshold
 * alone would flag noise whenever runs vary. Requiring both keeps false alarms near {@code alpha}
 * while ignoring changes nobody cares about.
 *
 * <p>When the baseline mean is 0 (no errors before) and the candidate's is not, the relative change
 * is infinite and therefore beyond any threshold; the verdict then rests on significance alone.
 *
 * @param metric the metric compared
 * @param test Welch's test of candidate vs baseline, at confidence {@code 1 - alpha}
 * @param settings alpha and threshold used
 * @param verdict better, worse or no significant change
 * @param significant whether {@code p < alpha}, whatever the threshold
 * @param warnings warnings about the runs (too few, too variable); empty when none
 * @param reason one line explaining the verdict, e.g. {@code "p99 +10.2% [CI +7.9%, +12.5%],
 *     p=0.0003: worse"}
 */
public record Comparison(
    Metric metric,
    WelchTest test,
    Settings settings,
    Verdict verdict,
    boolean significant,
    List<String> warnings,
    String reason) {

  /**
   * Copies the warnings and checks the fields.
   *
   * @param metric see {@link #metric()}
   * @param test see {@link #test()}
   * @param settings see {@link #settings()}
   * @param verdict see {@link #verdict()}
   * @param significant see {@link #significant()}
   * @param warnings see {@link #warnings()}
   * @param reason see {@link #reason()}
   */
  public Comparison {
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(test, "test");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(verdict, "verdict");
    warnings = List.copyOf(warnings);
  }

  /**
   * How comparisons decide.
   *
   * @param alpha the significance level: significant when {@code p < alpha}; the confidence
   *     intervals are at {@code 1 - alpha}
   * @param threshold the smallest relative change that matters, a fraction (0.05 = 5%)
   * @param cvWarningThreshold the coefficient of variation above which a side gets a warning
   */
  public record Settings(double alpha, double threshold, double cvWarningThreshold) {

    /** alpha 0.05 (95% intervals), threshold 5%, CV warning above 10%. */
    public static final Settings DEFAULTS =
        new Settings(0.05, 0.05, ConfidenceInterval.DEFAULT_CV_WARNING_THRESHOLD);

    /**
     * Checks the ranges.
     *
     * @param alpha see {@link #alpha()}
     * @param threshold see {@link #threshold()}
     * @param cvWarningThreshold see {@link #cvWarningThreshold()}
     */
    public Settings {
      if (!(alpha > 0 && alpha < 1)) {
        throw new IllegalArgumentException("alpha must be between 0 and 1, got " + alpha);
      }
      if (!(threshold >= 0 && threshold < Double.POSITIVE_INFINITY)) {
        throw new IllegalArgumentException("the threshold must be >= 0, got " + threshold);
      }
      if (!(cvWarningThreshold >= 0)) {
        throw new IllegalArgumentException(
            "the CV warning threshold must be >= 0, got " + cvWarningThreshold);
      }
    }

    /**
     * The defaults with another threshold.
     *
     * @param threshold the smallest relative change that matters, a fraction
     * @return the settings
     */
    public static Settings withThreshold(double threshold) {
      return new Settings(DEFAULTS.alpha, threshold, DEFAULTS.cvWarningThreshold);
    }

    /**
     * The confidence level of the intervals.
     *
     * @return {@code 1 - alpha}
     */
    public double confidence() {
      return 1 - alpha;
    }
  }

  /**
   * Compares with the default settings (alpha 0.05, threshold 5%).
   *
   * @param metric the metric and its direction
   * @param baseline one value per baseline run
   * @param candidate one value per candidate run
   * @return the comparison
   */
  public static Comparison compare(Metric metric, double[] baseline, double[] candidate) {
    return compare(metric, baseline, candidate, Settings.DEFAULTS);
  }

  /**
   * Compares candidate runs to baseline runs on one metric.
   *
   * @param metric the metric and its direction
   * @param baseline one value per baseline run, not empty, all finite
   * @param candidate one value per candidate run, not empty, all finite
   * @param settings alpha and threshold
   * @return the comparison
   */
  public static Comparison compare(
      Metric metric, double[] baseline, double[] candidate, Settings settings) {
    return compare(metric, Sample.of(baseline), Sample.of(candidate), settings);
  }

  /**
   * Compares already summarised samples.
   *
   * @param metric the metric and its direction
   * @param baseline the baseline runs' statistics
   * @param candidate the candidate runs' statistics
   * @param settings alpha and threshold
   * @return the comparison
   */
  public static Comparison compare(
      Metric metric, Sample baseline, Sample candidate, Settings settings) {
    WelchTest test = WelchTest.of(baseline, candidate, settings.confidence());
    List<String> warnings = new ArrayList<>();
    warn(warnings, "baseline", baseline, settings);
    warn(warnings, "candidate", candidate, settings);

    double change = test.relativeChange();
    boolean significant = test.significant(settings.alpha());
    boolean beyond = Math.abs(change) > settings.threshold();
    Verdict verdict;
    String why;
    if (!test.defined()) {
      verdict = Verdict.NO_SIGNIFICANT_CHANGE;
      why =
          verdict.label()
              + " (not enough runs to test: baseline n="
              + baseline.n()
              + ", candidate n="
              + candidate.n()
              + ")";
    } else if (significant && beyond) {
      verdict = metric.direction().isBad(change) ? Verdict.WORSE : Verdict.BETTER;
      why = verdict.label();
    } else if (significant) {
      verdict = Verdict.NO_SIGNIFICANT_CHANGE;
      why =
          verdict.label()
              + " (significant, but within the "
              + Texts.percent(settings.threshold())
              + " threshold)";
    } else {
      verdict = Verdict.NO_SIGNIFICANT_CHANGE;
      why = verdict.label();
    }
    String reason = describe(metric, test) + ": " + why;
    return new Comparison(metric, test, settings, verdict, significant, warnings, reason);
  }

  private static void warn(List<String> warnings, String side, Sample sample, Settings settings) {
    for (String w :
        ConfidenceInterval.studentT(sample, settings.confidence(), settings.cvWarningThreshold())
            .warnings()) {
      warnings.add(side + ": " + w);
    }
  }

  private static String describe(Metric metric, WelchTest test) {
    StringBuilder s = new StringBuilder(metric.name()).append(' ');
    if (test.baseline().mean() == 0) {
      s.append(Texts.value(test.baseline().mean()))
          .append(" → ")
          .append(Texts.value(test.candidate().mean()))
          .append(" (baseline mean is 0)");
    } else {
      s.append(Texts.signedPercent(test.relativeChange()));
      if (test.relativeIntervalBounded()) {
        s.append(" [CI ")
            .append(Texts.signedPercent(test.relativeLower()))
            .append(", ")
            .append(Texts.signedPercent(test.relativeUpper()))
            .append(']');
      } else {
        s.append(" [CI unbounded]");
      }
    }
    return s.append(", ").append(Texts.pValue(test.pValue())).toString();
  }

  /**
   * The relative change of the means, candidate vs baseline, as a fraction.
   *
   * @return {@code m_c / m_b - 1}
   */
  public double relativeChange() {
    return test.relativeChange();
  }

  /**
   * The p-value of Welch's test.
   *
   * @return the two-sided p-value, {@code NaN} with fewer than 2 runs on a side
   */
  public double pValue() {
    return test.pValue();
  }

  /**
   * Whether this metric regressed.
   *
   * @return {@code verdict == WORSE}
   */
  public boolean isWorse() {
    return verdict == Verdict.WORSE;
  }
}
