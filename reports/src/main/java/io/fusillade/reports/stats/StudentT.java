package io.fusillade.reports.stats;

import org.apache.commons.math3.distribution.TDistribution;

/** Student's t distribution helpers over commons-math3, with no random generator allocated. */
final class StudentT {

  private StudentT() {}

  private static TDistribution distribution(double degreesOfFreedom) {
    return new TDistribution(
        null, degreesOfFreedom, TDistribution.DEFAULT_INVERSE_ABSOLUTE_ACCURACY);
  }

  /** The two-sided critical value t(1 - (1 - confidence) / 2, df). */
  static double critical(double confidence, double degreesOfFreedom) {
    return distribution(degreesOfFreedom).inverseCumulativeProbability(0.5 + confidence / 2);
  }

  /** The two-sided p-value of a t statistic: P(|T| >= |t|). */
  static double twoSidedP(double t, double degreesOfFreedom) {
    if (Double.isNaN(t)) {
      return Double.NaN;
    }
    if (Double.isInfinite(t)) {
      return 0;
    }
    return Math.min(1, 2 * distribution(degreesOfFreedom).cumulativeProbability(-Math.abs(t)));
  }

  static void checkConfidence(double confidence) {
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException(
          "confidence must be between 0 and 1 (exclusive), got " + confidence);
    }
  }
}
