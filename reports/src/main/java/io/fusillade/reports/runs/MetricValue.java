package io.fusillade.reports.runs;

import io.fusillade.reports.stats.Metric;

/**
 * One number that describes a run, for statistics over runs.
 *
 * @param metric its name and which way is better
 * @param value the value
 * @param unit the unit shown beside it: {@code ms}, {@code /s}, {@code %}, {@code MB/s}
 */
public record MetricValue(Metric metric, double value, String unit) {}
