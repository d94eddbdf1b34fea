package io.fusillade.topic;

import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * Whether consumer lag grew during a run or a step: the "lag not growing" check.
 *
 * <p>Lag is sampled once a second. The first half of the window is ignored (consumers join, the
 * producer warms up); over the second half a least-squares line is fitted to lag against time. The
 * lag <b>grows</b> when both:
 *
 * <ol>
 *   <li>the slope is significantly positive: one-sided t-test on the slope, p &lt; {@value #ALPHA};
 *       and
 *   <li>the slope is material: more than {@value #RELATIVE_THRESHOLD} of the produce rate (lag
 *       accumulating at 1% of the messages sent), and more than 1 message/s.
 * </ol>
 *
 * Otherwise it is <b>flat</b> (a constant lag, however high, is flat: the readers keep up). With
 * fewer than {@value #MIN_SAMPLES} samples in the second half the verdict is <b>unknown</b>, and
 * the check does not pass.
 */
public final class LagTrend {
  /** Significance level of the slope test. */
  public static final double ALPHA = 0.01;

  /** The smallest material growth, as a fraction of the produce rate. */
  public static final double RELATIVE_THRESHOLD = 0.01;

  /** Samples needed in the second half of the window. */
  public static final int MIN_SAMPLES = 5;

  private LagTrend() {}

  /** The verdict. */
  public enum Verdict {
    FLAT,
    GROWING,
    UNKNOWN
  }

  /**
   * @param verdict flat, growing or unknown
   * @param slopePerSecond the fitted growth of lag, in messages per second
   * @param pValue one-sided p-value of "slope &gt; 0"
   * @param thresholdPerSecond the smallest material slope
   * @param samples samples in the fitted half
   */
  public record Result(
      Verdict verdict,
      double slopePerSecond,
      double pValue,
      double thresholdPerSecond,
      int samples) {
    /** Whether the "lag not growing" check passes. */
    public boolean notGrowing() {
      return verdict == Verdict.FLAT;
    }
  }

  /** One lag sample: seconds since the start of the run, and lag in messages. */
  public record Sample(double seconds, double lag) {}

  /**
   * @param samples the window's samples, in time order
   * @param producedPerSecond the mean produce rate over the window
   */
  public static Result of(List<Sample> samples, double producedPerSecond) {
    double threshold = Math.max(1.0, RELATIVE_THRESHOLD * producedPerSecond);
    List<Sample> half = samples.subList(samples.size() / 2, samples.size());
    if (half.size() < MIN_SAMPLES) {
      return new Result(Verdict.UNKNOWN, Double.NaN, Double.NaN, threshold, half.size());
    }
    SimpleRegression fit = new SimpleRegression();
    for (Sample s : half) {
      fit.addData(s.seconds(), s.lag());
    }
    double slope = fit.getSlope();
    double error = fit.getSlopeStdErr();
    double p;
    if (!(error > 0)) {
      p = slope > 0 ? 0 : 1; // a perfect line: certain
    } else {
      p = 1 - new TDistribution(half.size() - 2).cumulativeProbability(slope / error);
    }
    boolean growing = slope > threshold && p < ALPHA;
    return new Result(growing ? Verdict.GROWING : Verdict.FLAT, slope, p, threshold, half.size());
  }
}
