/**
 * The statistics engine of Fusillade's reports: descriptive statistics of repeated runs ({@link
 * io.fusillade.reports.stats.Sample}), Student-t confidence intervals ({@link
 * io.fusillade.reports.stats.ConfidenceInterval}), Welch's two-sample test ({@link
 * io.fusillade.reports.stats.WelchTest}), regression verdicts per metric ({@link
 * io.fusillade.reports.stats.Comparison}) and per load level ({@link
 * io.fusillade.reports.stats.SteppedComparison}).
 *
 * <p>Change-point detection over a history of runs lives in {@link
 * io.fusillade.reports.stats.changepoint}.
 *
 * <p>Conventions: every relative quantity (a change, a threshold, a coefficient of variation) is a
 * fraction, {@code 0.05} meaning 5%; methods whose name ends in {@code Percent} return percent.
 * Inputs must be finite numbers; an empty sample or a NaN is rejected with {@link
 * IllegalArgumentException}. Everything is immutable and deterministic.
 */
package io.fusillade.reports.stats;
