package io.fusillade.reports.summary;

import io.fusillade.record.RunManifest;
import io.fusillade.record.RunRecord;
import io.fusillade.record.SecondCounts;
import java.nio.file.Path;
import java.util.HashMap;
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
    Map<String, Double> active = activeSeconds(record);
    List<RequestSummary> requests =
        record.requests().values().stream()
            .map(t -> RequestSummary.of(t, active.getOrDefault(t.name(), duration)))
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
   * Per request name, the seconds from the start of the first interval in which it completed a
   * request to the end of the last one: the time over which its rate is meant, without the run's
   * setup and drain.
   */
  static Map<String, Double> activeSeconds(RunRecord record) {
    Map<String, long[]> spans = new HashMap<>();
    long intervalStart = record.manifest().startEpochMs();
    for (SecondCounts second : record.seconds()) {
      long start = intervalStart;
      second
          .requests()
          .forEach(
              (name, counts) -> {
                if (counts.ok() + counts.ko() > 0) {
                  long[] span = spans.computeIfAbsent(name, n -> new long[] {start, start});
                  span[1] = second.epochMs();
                }
              });
      intervalStart = second.epochMs();
    }
    Map<String, Double> seconds = new HashMap<>();
    spans.forEach((name, span) -> seconds.put(name, Math.max(1, span[1] - span[0]) / 1000.0));
    return seconds;
  }
}
