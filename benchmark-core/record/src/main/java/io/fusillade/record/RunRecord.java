package io.fusillade.record;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A run record as read from its directory: the manifest, whole-run totals per request name and
 * metric, and the per-second counts. Read with {@link RunRecordReader#read(Path)}.
 *
 * @param endEpochMs the end of the run: the recorder's, or the end of the last interval on disk
 *     when the run never closed
 * @param truncatedLines lines at the end of a file that a kill left unfinished and that were
 *     skipped
 * @param events the events of {@value RunFiles#EVENTS} in time order (node down and up...), empty
 *     when the run had none
 */
public record RunRecord(
    Path directory,
    RunManifest manifest,
    long endEpochMs,
    Map<String, RequestTotals> requests,
    Map<String, Histogram> metrics,
    List<SecondCounts> seconds,
    int truncatedLines,
    List<RunEvent> events) {

  /** Seconds between the start of the run and its end. */
  public double durationSeconds() {
    return Math.max(0, endEpochMs - manifest.startEpochMs()) / 1000.0;
  }

  /**
   * A gauge's value in each second of {@link #seconds()}, {@code NaN} in the seconds it is missing.
   *
   * @param name the gauge's name, e.g. {@code system.cpu.steal}
   * @return one value per second
   */
  public double[] gauge(String name) {
    double[] values = new double[seconds.size()];
    for (int i = 0; i < values.length; i++) {
      Double v = seconds.get(i).gauges().get(name);
      values[i] = v == null ? Double.NaN : v;
    }
    return values;
  }

  /**
   * The names of the gauges recorded in any second, sorted.
   *
   * @return the names
   */
  public java.util.SortedSet<String> gaugeNames() {
    java.util.SortedSet<String> names = new java.util.TreeSet<>();
    seconds.forEach(s -> names.addAll(s.gauges().keySet()));
    return names;
  }

  /** True when the record does not cover a whole, normally ended run. */
  public boolean isPartial() {
    return manifest.status().isPartial();
  }
}
