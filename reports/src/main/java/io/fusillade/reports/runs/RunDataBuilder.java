package io.fusillade.reports.runs;

import io.fusillade.record.Injected;
import io.fusillade.record.Latencies;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunStatus;
import io.fusillade.record.SecondCounts;
import io.fusillade.record.Status;
import io.fusillade.record.Tags;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

/**
 * Merges the records of one run's injectors into the series {@link RunData} holds: request totals,
 * metrics, per-second counts, rates over real interval lengths, gauges and latency percentiles.
 * Each file is read once and each histogram interval decoded once.
 */
final class RunDataBuilder {
  final List<RunRecord> records = new ArrayList<>();
  RunStatus status = RunStatus.COMPLETED;
  String statusReason;
  long startEpochMs;
  long endEpochMs;
  final Map<String, RequestTotals> requests = new TreeMap<>();
  final Map<String, Histogram> metrics = new TreeMap<>();
  final LinkedHashSet<String> flags = new LinkedHashSet<>();
  final LinkedHashSet<String> checks = new LinkedHashSet<>();
  int seconds;
  final Map<String, long[]> completed = new LinkedHashMap<>();
  final Map<String, long[]> ko = new LinkedHashMap<>();
  final Map<String, long[]> sent = new LinkedHashMap<>();
  final Map<String, long[]> counters = new LinkedHashMap<>();
  final Map<String, double[]> completedRate = new LinkedHashMap<>();
  final Map<String, double[]> koRate = new LinkedHashMap<>();
  final Map<String, double[]> counterRate = new LinkedHashMap<>();
  final Map<String, double[]> gaugeSums = new LinkedHashMap<>();
  final Map<String, long[]> gaugeCounts = new HashMap<>();
  final Map<Integer, org.HdrHistogram.AbstractHistogram> perSecond = new HashMap<>();

  /** Like {@link #perSecond}, the requests not injected to fail only (OK and KO). */
  final Map<Integer, org.HdrHistogram.AbstractHistogram> goodPerSecond = new HashMap<>();

  final Map<String, double[]> okP99 = new LinkedHashMap<>();
  double[] lagP99 = new double[0];
  double[] lagMax = new double[0];
  final Map<String, double[][]> metricSeconds = new LinkedHashMap<>();

  void add(Path directory) {
    long[] injectorStart = {Long.MIN_VALUE};
    RunRecord record =
        RunRecordReader.read(
            directory,
            (tag, start, length, histogram) -> {
              if (injectorStart[0] == Long.MIN_VALUE) {
                injectorStart[0] = RunData.startOf(directory);
              }
              int second = second(injectorStart[0] + Math.round((start + length) * 1000));
              interval(tag, second, histogram);
            });
    records.add(record);
    if (record.isPartial() && status == RunStatus.COMPLETED) {
      status = record.manifest().status();
      statusReason = record.manifest().statusReason();
    }
    endEpochMs = Math.max(endEpochMs, record.endEpochMs());
    seconds = Math.max(seconds, second(record.endEpochMs()) + 1);
    flags.addAll(record.manifest().flags());
    checks.addAll(record.manifest().checks());
    record.requests().forEach((name, t) -> requests.merge(name, t, RunDataBuilder::merge));
    record
        .metrics()
        .forEach(
            (name, h) ->
                metrics.merge(
                    name,
                    h,
                    (a, c) -> {
                      Histogram sum = a.copy();
                      sum.add(c);
                      return sum;
                    }));
    InjectorSeconds own = new InjectorSeconds();
    long previous = record.manifest().startEpochMs();
    for (SecondCounts s : record.seconds()) {
      int second = second(s.epochMs());
      seconds = Math.max(seconds, second + 1);
      own.cover(second, (s.epochMs() - previous) / 1000.0);
      previous = s.epochMs();
      s.requests()
          .forEach(
              (name, r) -> {
                completed.put(
                    name,
                    Growable.add(
                        completed.getOrDefault(name, new long[0]), second, r.ok() + r.ko()));
                ko.put(name, Growable.add(ko.getOrDefault(name, new long[0]), second, r.ko()));
                sent.put(
                    name, Growable.add(sent.getOrDefault(name, new long[0]), second, r.sent()));
                own.count(own.completed, name, second, r.ok() + r.ko());
                own.count(own.ko, name, second, r.ko());
                own.count(own.completed, RunData.ALL, second, r.ok() + r.ko());
              });
      s.counters()
          .forEach(
              (name, delta) -> {
                counters.put(
                    name, Growable.add(counters.getOrDefault(name, new long[0]), second, delta));
                own.count(own.counters, name, second, delta);
              });
      s.gauges()
          .forEach(
              (name, value) -> {
                own.gaugeSums.put(
                    name,
                    Growable.sum(own.gaugeSums.getOrDefault(name, new double[0]), second, value));
                own.count(own.gaugeCounts, name, second, 1);
              });
    }
    own.ratesInto(own.completed, completedRate);
    own.ratesInto(own.ko, koRate);
    own.ratesInto(own.counters, counterRate);
    // A gauge is a level, not a count: averaged over the injector's intervals that ended in the
    // second (a late flush can put two there), never divided by a length.
    own.gaugeSums.forEach(
        (name, sum) -> {
          long[] n = own.gaugeCounts.get(name);
          for (int i = 0; i < sum.length; i++) {
            if (i < n.length && n[i] > 0) {
              gaugeSums.put(
                  name,
                  Growable.sum(gaugeSums.getOrDefault(name, new double[0]), i, sum[i] / n[i]));
              gaugeCounts.put(
                  name, Growable.add(gaugeCounts.getOrDefault(name, new long[0]), i, 1));
            }
          }
        });
  }

  /** The index of the second that ends nearest {@code epochMs}: the first second is 0. */
  int second(long epochMs) {
    return (int) Math.max(0, Math.round((epochMs - startEpochMs) / 1000.0) - 1);
  }

  /**
   * A metric's percentiles in one second, from that second's interval; several injectors' (or
   * intervals') values for the same second keep the worst, as {@link #okP99} does.
   */
  void metricSecond(String name, int second, Histogram histogram) {
    if (histogram.getTotalCount() == 0) {
      return;
    }
    double[][] rows =
        metricSeconds.computeIfAbsent(name, n -> new double[RunData.SECOND_PERCENTILES.length][0]);
    for (int i = 0; i < rows.length; i++) {
      rows[i] =
          Growable.max(
              rows[i],
              second,
              histogram.getValueAtPercentile(RunData.SECOND_PERCENTILES[i]) / 1000.0);
    }
  }

  void interval(String tag, int second, Histogram histogram) {
    Optional<Tags.Parsed> parsed = Tags.parse(tag);
    if (parsed.isEmpty()) {
      return;
    }
    Tags.Parsed p = parsed.get();
    if (!p.isRequest()) {
      metricSecond(p.name(), second, histogram);
    }
    if (p.isRequest()) {
      perSecond.computeIfAbsent(second, s -> secondHistogram()).add(histogram);
      if (!Injected.is(p.name())) {
        // kept apart so the good requests can be judged before, during and after an injection
        goodPerSecond.computeIfAbsent(second, s -> secondHistogram()).add(histogram);
      }
      if (p.status() == Status.OK) {
        okP99.put(
            p.name(),
            Growable.max(
                okP99.getOrDefault(p.name(), new double[0]),
                second,
                histogram.getValueAtPercentile(99) / 1000.0));
      }
    } else if (p.name().equals("injector.lag")) {
      lagP99 = Growable.max(lagP99, second, histogram.getValueAtPercentile(99) / 1000.0);
      lagMax = Growable.max(lagMax, second, histogram.getMaxValue() / 1000.0);
    }
  }

  /** One second's merge: two significant digits (1% resolution) keep a long run's seconds small. */
  static IntCountsHistogram secondHistogram() {
    return new IntCountsHistogram(Latencies.HIGHEST_TRACKABLE_MICROS, 2);
  }

  private static RequestTotals merge(RequestTotals a, RequestTotals b) {
    Histogram ok = a.ok().copy();
    ok.add(b.ok());
    Histogram ko = a.ko().copy();
    ko.add(b.ko());
    Map<String, Long> errors = new TreeMap<>(a.errors());
    b.errors().forEach((reason, n) -> errors.merge(reason, n, Long::sum));
    return new RequestTotals(a.name(), ok, ko, a.sent() + b.sent(), a.bytes() + b.bytes(), errors);
  }
}
