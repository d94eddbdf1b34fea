package io.fusillade.reports.summary;

import io.fusillade.record.RunManifest;
import io.fusillade.record.RunRecord;
import io.fusillade.record.SecondCounts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The numbers of one run record: per request name, counts and latency percentiles; the injector's
 * lag; the warnings the run carries.
 */
public record RunSummary(
    Path directory,
    RunManifest manifest,
    double durationSeconds,
    List<RequestSummary> requests,
    Map<String, Histogram> metrics,
    int truncatedLines) {

  public static RunSummary of(RunRecord record) {
    double duration = record.durationSeconds();
    List<RequestSummary> requests =
        record.requests().values().stream()
            .map(t -> RequestSummary.of(t, rate(record, t.name(), t.count(), duration)))
            .toList();
    return new RunSummary(
        record.directory(),
        record.manifest(),
        duration,
        requests,
        record.metrics(),
        record.truncatedLines());
  }

  /**
   * Completed requests per second in the steady state: over the whole intervals between the first
   * and the last in which the name completed requests, leaving those two out because they are
   * partly before the first request and after the last. Intervals without requests in between
   * count: a stall is part of the rate. Runs of fewer than three such intervals fall back to the
   * whole span.
   */
  static double rate(RunRecord record, String name, long total, double runSeconds) {
    List<long[]> intervals = new ArrayList<>(); // start ms, end ms, completed
    long start = record.manifest().startEpochMs();
    for (SecondCounts second : record.seconds()) {
      SecondCounts.RequestSecond counts = second.requests().get(name);
      long completed = counts == null ? 0 : counts.ok() + counts.ko();
      intervals.add(new long[] {start, second.epochMs(), completed});
      start = second.epochMs();
    }
    int first = 0;
    while (first < intervals.size() && intervals.get(first)[2] == 0) {
      first++;
    }
    int last = intervals.size() - 1;
    while (last >= first && intervals.get(last)[2] == 0) {
      last--;
    }
    if (first > last) {
      return runSeconds > 0 ? total / runSeconds : 0;
    }
    if (last - first + 1 < 3) {
      long spanMs = intervals.get(last)[1] - intervals.get(first)[0];
      return spanMs > 0 ? total * 1000.0 / spanMs : 0;
    }
    long completed = 0;
    long spanMs = 0;
    for (long[] interval : intervals.subList(first + 1, last)) {
      completed += interval[2];
      spanMs += interval[1] - interval[0];
    }
    return spanMs > 0 ? completed * 1000.0 / spanMs : 0;
  }
}
