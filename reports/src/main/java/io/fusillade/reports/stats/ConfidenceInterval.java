package io.fusillade.reports.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * A Student-t confidence interval of the mean of one metric over repeated runs: {@code mean ± t(1 -
 * α/2, n - 1) · s / √n}, with {@code α = 1 - confidence}; or, for a metric that is positive by
 * nature and varies by factors (a latency), the same interval on the logarithms of the values,
 * turned back: {@code exp(mean(ln x) ± t · s_ln / √n)}, an interval of the geometric mean that is
 * never below 0 ({@link #logScale}). A linear interval of a positive metric is cut at 0.
 *
 * <p>It assumes the runs are independent and their values (or their logarithms) roughly normal (or
 * numerous); it says where the true mean of this setup probably lies, not where a single future run
 * will fall.
 *
 * <p>With a single run the interval is undefined: the bounds are infinite, {@link #defined()} is
 * false and a warning says so. With two runs it is defined but very wide (t = 12.7 at 95%). With
 * fewer than 3 runs, or a coefficient of variation above a threshold (default 10%), {@link
 * #warnings()} explains why the interval should not be trusted much.
 *
 * @param sample the descriptive statistics of the values
 * @param confidence the confidence level, e.g. 0.95
 * @param lower the lower bound, {@code -∞} when undefined
 * @param upper the upper bound, {@code +∞} when undefined
 * @param warnings human-readable warnings, empty when none; see {@link #FEWER_THAN_3_RUNS} and
 *     {@link #HIGH_CV}
 * @param centre the interval's centre: the mean, or the geometric mean of a log-scale interval
 * @param log whether the interval was computed on the logarithms ({@link #logScale})
 */
public record ConfidenceInterval(
    Sample sample,
    double confidence,
    double lower,
    double upper,
    List<String> warnings,
    double centre,
    boolean log) {

  /** The default coefficient of variation above which a warning is given: 10%. */
  public static final double DEFAULT_CV_WARNING_THRESHOLD = 0.10;

  /** The start of the warning given when n &lt; 3. */
  public static final String FEWER_THAN_3_RUNS = "fewer than 3 runs";

  /** The start of the warning given when the coefficient of variation is above the threshold. */
  public static final String HIGH_CV = "CV above";

  /**
   * Copies the warnings.
   *
   * @param sample see {@link #sample()}
   * @param confidence see {@link #confidence()}
   * @param lower see {@link #lower()}
   * @param upper see {@link #upper()}
   * @param warnings see {@link #warnings()}
   */
  public ConfidenceInterval {
    warnings = List.copyOf(warnings);
  }

  /**
   * A linear interval around the sample's mean.
   *
   * @param sample see {@link #sample()}
   * @param confidence see {@link #confidence()}
   * @param lower see {@link #lower()}
   * @param upper see {@link #upper()}
   * @param warnings see {@link #warnings()}
   */
  public ConfidenceInterval(
      Sample sample, double confidence, double lower, double upper, List<String> warnings) {
    this(sample, confidence, lower, upper, warnings, sample.mean(), false);
  }

  /**
   * The interval of a metric that cannot be negative: on the logarithms of the values when every
   * one is above 0 ({@code exp(mean(ln x) ± t(1 - α/2, n - 1) · s_ln / √n)}, around the geometric
   * mean), else the Student-t interval of the mean with its lower bound cut at 0. Latencies vary by
   * factors (a slower machine makes every request slower by a share, not by a fixed amount), so
   * their runs are closer to lognormal than to normal; the linear interval of a few runs with a
   * high CV reached below 0 ({@code [-85.8, 107]} for a p99), a latency no run can have.
   *
   * @param values one value per run, not empty, all finite and not negative
   * @param confidence the confidence level, strictly between 0 and 1
   * @param cvWarningThreshold the coefficient of variation above which a warning is given
   * @return the interval
   */
  public static ConfidenceInterval logScale(
      double[] values, double confidence, double cvWarningThreshold) {
    ConfidenceInterval linear = studentT(values, confidence, cvWarningThreshold);
    boolean positive = java.util.Arrays.stream(values).allMatch(v -> v > 0);
    if (!positive || values.length < 2) {
      return new ConfidenceInterval(
          linear.sample(),
          confidence,
          linear.defined() ? Math.max(0, linear.lower()) : linear.lower(),
          linear.upper(),
          linear.warnings(),
          linear.centre(),
          false);
    }
    double[] logs = java.util.Arrays.stream(values).map(Math::log).toArray();
    Sample onLogs = Sample.of(logs);
    double halfWidth = StudentT.critical(confidence, values.length - 1) * onLogs.standardError();
    return new ConfidenceInterval(
        linear.sample(),
        confidence,
        Math.exp(onLogs.mean() - halfWidth),
        Math.exp(onLogs.mean() + halfWidth),
        linear.warnings(),
        Math.exp(onLogs.mean()),
        true);
  }

  /**
   * The Student-t interval of the mean with the default CV warning threshold (10%).
   *
   * @param values one value per run, not empty, all finite
   * @param confidence the confidence level, strictly between 0 and 1, e.g. 0.95
   * @return the interval
   */
  public static ConfidenceInterval studentT(double[] values, double confidence) {
    return studentT(values, confidence, DEFAULT_CV_WARNING_THRESHOLD);
  }

  /**
   * The Student-t interval of the mean.
   *
   * @param values one value per run, not empty, all finite
   * @param confidence the confidence level, strictly between 0 and 1, e.g. 0.95
   * @param cvWarningThreshold the coefficient of variation (a fraction) above which a warning is
   *     given
   * @return the interval
   */
  public static ConfidenceInterval studentT(
      double[] values, double confidence, double cvWarningThreshold) {
    return studentT(Sample.of(values), confidence, cvWarningThreshold);
  }

  /**
   * The Student-t interval of the mean of an already summarised sample.
   *
   * @param sample the statistics of the values
   * @param confidence the confidence level, strictly between 0 and 1
   * @param cvWarningThreshold the coefficient of variation above which a warning is given
   * @return the interval
   */
  public static ConfidenceInterval studentT(
      Sample sample, double confidence, double cvWarningThreshold) {
    StudentT.checkConfidence(confidence);
    if (!(cvWarningThreshold >= 0)) {
      throw new IllegalArgumentException(
          "the CV warning threshold must be >= 0, got " + cvWarningThreshold);
    }
    List<String> warnings = new ArrayList<>();
    int n = sample.n();
    double lower;
    double upper;
    if (n < 2) {
      lower = Double.NEGATIVE_INFINITY;
      upper = Double.POSITIVE_INFINITY;
      warnings.add(FEWER_THAN_3_RUNS + " (n=1): the interval is undefined");
    } else {
      double halfWidth = StudentT.critical(confidence, n - 1) * sample.standardError();
      lower = sample.mean() - halfWidth;
      upper = sample.mean() + halfWidth;
      if (n < 3) {
        warnings.add(FEWER_THAN_3_RUNS + " (n=" + n + "): the interval is very wide");
      }
      double cv = sample.coefficientOfVariation();
      if (cv > cvWarningThreshold) {
        warnings.add(
            HIGH_CV
                + " "
                + Texts.percent(cvWarningThreshold)
                + " ("
                + Texts.percent(cv)
                + "): the runs vary a lot");
      }
    }
    return new ConfidenceInterval(sample, confidence, lower, upper, warnings);
  }

  /**
   * Whether the interval is finite, i.e. there were at least 2 runs.
   *
   * @return true when the bounds are finite
   */
  public boolean defined() {
    return sample.n() >= 2;
  }

  /**
   * The mean at the centre of the interval.
   *
   * @return the sample mean, or the geometric mean of a {@link #logScale} interval
   */
  public double mean() {
    return centre;
  }

  /**
   * The number of runs.
   *
   * @return n
   */
  public int n() {
    return sample.n();
  }

  /**
   * The coefficient of variation of the runs, as a fraction.
   *
   * @return {@code s / |mean|}, {@code NaN} for one run
   */
  public double coefficientOfVariation() {
    return sample.coefficientOfVariation();
  }

  /**
   * Half the width of the interval: the "±" part.
   *
   * @return {@code t · s / √n}, {@code +∞} when undefined
   */
  public double halfWidth() {
    return defined() ? (upper - lower) / 2 : Double.POSITIVE_INFINITY;
  }

  /**
   * The half width relative to the centre, as a fraction: "± 1.3%" (of a log-scale interval, whose
   * bounds are not symmetric, half its width).
   *
   * @return {@code halfWidth / |centre|}
   */
  public double relativeHalfWidth() {
    return halfWidth() / Math.abs(centre);
  }

  /**
   * Whether the value lies inside the interval, bounds included.
   *
   * @param value a value
   * @return true when {@code lower <= value <= upper}
   */
  public boolean contains(double value) {
    return lower <= value && value <= upper;
  }

  /**
   * Whether a warning about too few runs was given.
   *
   * @return true when n &lt; 3
   */
  public boolean tooFewRuns() {
    return sample.n() < 3;
  }

  /**
   * Whether a warning about a high coefficient of variation was given.
   *
   * @return true when the CV is above the threshold
   */
  public boolean highVariation() {
    return warnings.stream().anyMatch(w -> w.startsWith(HIGH_CV));
  }
}
