package io.fusillade.reports.stats;

/**
 * Welch's two-sample t-test of a candidate against a baseline: two independent sets of runs whose
 * variances may differ.
 *
 * <p>With means {@code m_b, m_c}, variances {@code v_b, v_c} and sizes {@code n_b, n_c}:
 *
 * <ul>
 *   <li>difference {@code d = m_c - m_b}, standard error {@code se = √(v_b/n_b + v_c/n_c)};
 *   <li>degrees of freedom by Welch–Satterthwaite: {@code se⁴ / ((v_b/n_b)²/(n_b-1) +
 *       (v_c/n_c)²/(n_c-1))};
 *   <li>{@code t = d / se}, two-sided {@code p = P(|T_df| ≥ |t|)};
 *   <li>the confidence interval of the difference {@code d ± t(1-α/2, df) · se}.
 * </ul>
 *
 * <p><b>Relative change.</b> {@code relativeChange = m_c / m_b - 1} (a fraction; meaningful for
 * positive metrics, which all of Fusillade's are). Its confidence interval is <em>Fieller's</em>
 * interval for the ratio of the two means {@code ρ = μ_c / μ_b}, minus 1: the set of {@code ρ} for
 * which {@code |m_c - ρ·m_b| / √(se_c² + ρ²·se_b²) ≤ t(1-α/2, df)}, solved as a quadratic in {@code
 * ρ}. Fieller is preferred to the delta method because it is exact under normality rather than a
 * first-order approximation, and it is asymmetric as a ratio's interval should be. The critical
 * value uses the Welch–Satterthwaite {@code df} of the difference, so the relative interval
 * excludes 0 exactly when {@code p < α}: the two never contradict each other. When the baseline
 * mean is not itself significantly different from zero the Fieller set is unbounded and the
 * relative bounds are infinite (see {@link #relativeIntervalBounded()}).
 *
 * <p><b>Degenerate cases.</b> With fewer than 2 runs on either side nothing can be tested: {@link
 * #defined()} is false, the statistic, {@code df} and p-value are {@code NaN} and the intervals are
 * infinite (the point estimates are still given). When both sides have zero variance: equal means
 * give {@code t = 0, p = 1}; different means give {@code t = ±∞, p = 0}; the intervals collapse to
 * the point estimate. When the baseline mean is 0 the relative change is {@code ±∞} (or 0 when the
 * candidate mean is also 0).
 *
 * @param baseline the baseline runs' statistics
 * @param candidate the candidate runs' statistics
 * @param confidence the confidence level of the intervals, e.g. 0.95
 * @param difference {@code m_c - m_b}
 * @param standardError the standard error of the difference
 * @param degreesOfFreedom the Welch–Satterthwaite degrees of freedom (not an integer)
 * @param tStatistic {@code difference / standardError}
 * @param pValue the two-sided p-value
 * @param lower the lower bound of the difference's interval
 * @param upper the upper bound of the difference's interval
 * @param relativeChange {@code m_c / m_b - 1}, a fraction
 * @param relativeLower the lower bound of the relative change's Fieller interval
 * @param relativeUpper the upper bound of the relative change's Fieller interval
 */
public record WelchTest(
    Sample baseline,
    Sample candidate,
    double confidence,
    double difference,
    double standardError,
    double degreesOfFreedom,
    double tStatistic,
    double pValue,
    double lower,
    double upper,
    double relativeChange,
    double relativeLower,
    double relativeUpper) {

  /**
   * Tests the candidate runs against the baseline runs.
   *
   * @param baseline one value per baseline run, not empty, all finite
   * @param candidate one value per candidate run, not empty, all finite
   * @param confidence the confidence level of the intervals, strictly between 0 and 1
   * @return the test
   */
  public static WelchTest of(double[] baseline, double[] candidate, double confidence) {
    return of(Sample.of(baseline), Sample.of(candidate), confidence);
  }

  /**
   * Tests already summarised samples.
   *
   * @param baseline the baseline runs' statistics
   * @param candidate the candidate runs' statistics
   * @param confidence the confidence level of the intervals, strictly between 0 and 1
   * @return the test
   */
  public static WelchTest of(Sample baseline, Sample candidate, double confidence) {
    StudentT.checkConfidence(confidence);
    double mb = baseline.mean();
    double mc = candidate.mean();
    double difference = mc - mb;
    double relative = relativeChange(mb, mc);
    double inf = Double.POSITIVE_INFINITY;
    if (baseline.n() < 2 || candidate.n() < 2) {
      return new WelchTest(
          baseline,
          candidate,
          confidence,
          difference,
          Double.NaN,
          Double.NaN,
          Double.NaN,
          Double.NaN,
          -inf,
          inf,
          relative,
          -inf,
          inf);
    }
    double seb2 = baseline.variance() / baseline.n();
    double sec2 = candidate.variance() / candidate.n();
    double se2 = seb2 + sec2;
    double se = Math.sqrt(se2);
    double df;
    if (se2 == 0) {
      df = baseline.n() + candidate.n() - 2; // irrelevant: no spread at all
    } else {
      df = se2 * se2 / (seb2 * seb2 / (baseline.n() - 1) + sec2 * sec2 / (candidate.n() - 1));
    }
    double t;
    if (se == 0) {
      t = difference == 0 ? 0 : Math.copySign(inf, difference);
    } else {
      t = difference / se;
    }
    double p = se == 0 ? (difference == 0 ? 1 : 0) : StudentT.twoSidedP(t, df);
    double critical = StudentT.critical(confidence, df);
    double half = critical * se;
    double[] ratio = fieller(mb, mc, seb2, sec2, critical);
    return new WelchTest(
        baseline,
        candidate,
        confidence,
        difference,
        se,
        df,
        t,
        p,
        difference - half,
        difference + half,
        relative,
        ratio[0] - 1,
        ratio[1] - 1);
  }

  private static double relativeChange(double mb, double mc) {
    if (mb == 0) {
      return mc == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, mc);
    }
    return mc / mb - 1;
  }

  /**
   * Fieller's interval for μ_c / μ_b: the ρ with (m_c - ρ m_b)² ≤ t² (se_c² + ρ² se_b²), i.e. a ρ²
   * + b ρ + c ≤ 0. Unbounded unless a > 0 (the baseline mean is significantly non-zero).
   */
  private static double[] fieller(double mb, double mc, double seb2, double sec2, double t) {
    double t2 = t * t;
    double a = mb * mb - t2 * seb2;
    if (!(a > 0)) {
      return new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY};
    }
    // with b = -2 mb mc: roots (mb mc ± √(mb² mc² - a c)) / a, and the discriminant simplifies to
    // t² (mb² sec2 + mc² seb2 - t² seb2 sec2) >= 0 whenever a > 0
    double disc = t2 * (mb * mb * sec2 + mc * mc * seb2 - t2 * seb2 * sec2);
    double root = Math.sqrt(Math.max(0, disc));
    return new double[] {(mb * mc - root) / a, (mb * mc + root) / a};
  }

  /**
   * Whether both sides have at least 2 runs, so the test means something.
   *
   * @return true when a p-value could be computed
   */
  public boolean defined() {
    return baseline.n() >= 2 && candidate.n() >= 2;
  }

  /**
   * Whether the difference is significant at the given level.
   *
   * @param alpha the significance level, e.g. 0.05
   * @return {@code pValue < alpha}; false when undefined
   */
  public boolean significant(double alpha) {
    return pValue < alpha;
  }

  /**
   * Whether the relative change's interval is finite.
   *
   * @return false when the baseline mean is not significantly different from zero (or undefined)
   */
  public boolean relativeIntervalBounded() {
    return Double.isFinite(relativeLower) && Double.isFinite(relativeUpper);
  }

  /**
   * The relative change in percent.
   *
   * @return {@code 100 · (m_c / m_b - 1)}
   */
  public double relativeChangePercent() {
    return relativeChange * 100;
  }
}
