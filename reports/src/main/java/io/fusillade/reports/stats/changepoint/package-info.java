/**
 * Change-point detection over a history of runs: where did a metric's distribution shift, and is
 * the shift real? See {@link io.fusillade.reports.stats.changepoint.ChangePoints}.
 */
package io.fusillade.reports.stats.changepoint;
