package io.fusillade.record;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.DoubleSupplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Turns the recorders' state into one interval per flush: histogram intervals into the HdrHistogram
 * log, counts into one JSON line, and both pushed to the operating system so that a killed JVM
 * leaves everything up to the last flush on disk. Not thread-safe: the recorder calls it under its
 * own lock.
 */
final class IntervalWriter implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path histogramFile;
  private final Path countersFile;
  private final FailureKeepingStream histogramFailure;
  private final PrintStream histogramStream;
  private final HistogramLogWriter histogramLog;
  private final FailureKeepingStream counterFailure;
  private final Writer counterLines;
  private final long startEpochMs;
  private long lastFlushEpochMs;

  private final Map<StripedRecorder, Interval> intervals = new HashMap<>();
  private final Map<Object, Long> lastTotals = new HashMap<>();
  private final Map<String, Histogram> totals = new HashMap<>();
  private final FlushListeners listeners;

  IntervalWriter(Path directory, long startEpochMs, FlushListeners listeners) throws IOException {
    this.startEpochMs = startEpochMs;
    this.listeners = listeners;
    this.lastFlushEpochMs = startEpochMs;
    this.histogramFile = directory.resolve(RunFiles.HISTOGRAMS);
    this.countersFile = directory.resolve(RunFiles.COUNTERS);
    this.histogramFailure = new FailureKeepingStream(new FileOutputStream(histogramFile.toFile()));
    this.histogramStream =
        new PrintStream(
            new BufferedOutputStream(histogramFailure, 1 << 16), false, StandardCharsets.US_ASCII);
    this.histogramLog = new HistogramLogWriter(histogramStream);
    histogramLog.outputLogFormatVersion();
    histogramLog.outputComment("Fusillade latencies in microseconds; max column in milliseconds");
    histogramLog.outputStartTime(startEpochMs);
    histogramLog.setBaseTime(startEpochMs);
    histogramLog.outputBaseTime(startEpochMs);
    histogramLog.outputLegend();
    this.counterFailure = new FailureKeepingStream(new FileOutputStream(countersFile.toFile()));
    this.counterLines =
        new BufferedWriter(new OutputStreamWriter(counterFailure, StandardCharsets.UTF_8));
    flushHistograms();
  }

  /**
   * Pushes the histogram log to the system, and fails as the write did: its {@code PrintStream}
   * would only remember that something went wrong.
   *
   * @throws RecordWriteException naming the file and the reason
   */
  private void flushHistograms() {
    histogramStream.flush();
    if (histogramFailure.failure() != null) {
      throw new RecordWriteException(histogramFile, histogramFailure.failure());
    }
  }

  /** The counters file's failure: its first one (a later write only says one came before). */
  private RecordWriteException counterWriteFailed(IOException e) {
    return new RecordWriteException(
        countersFile, counterFailure.failure() != null ? counterFailure.failure() : e);
  }

  /** One recorder's reusable interval histogram (HdrHistogram recycles it on the next swap). */
  private static final class Interval {
    Histogram reuse;
  }

  /**
   * Writes one interval.
   *
   * @throws RecordWriteException when a file cannot be written: the writer is then unusable (a
   *     half-written line may end a file; readers skip it)
   */
  void flush(
      Iterable<RequestChannel> channels,
      Iterable<LatencyMetric> metrics,
      Iterable<Counter> counters,
      Map<String, DoubleSupplier> gauges) {
    long now = System.currentTimeMillis();
    ObjectNode line = JSON.createObjectNode();
    line.put("t", now);
    line.put("elapsed", (now - startEpochMs) / 1000.0);
    line.put("interval", (now - lastFlushEpochMs) / 1000.0);

    ObjectNode requests = line.putObject("requests");
    for (RequestChannel channel : channels) {
      long ok = logInterval(channel.okRecorder(), Tags.request(channel.name(), Status.OK), now);
      StripedRecorder koRecorder = channel.koRecorderOrNull();
      long ko =
          koRecorder == null
              ? 0
              : logInterval(koRecorder, Tags.request(channel.name(), Status.KO), now);
      long sent = delta(channel, "sent", channel.sentTotal());
      long bytes = delta(channel, "bytes", channel.bytesTotal());
      ObjectNode errors = null;
      Map<String, Long> errorCounts = listeners.isEmpty() ? null : new HashMap<>();
      for (Map.Entry<String, Long> reason : channel.reasons().totals().entrySet()) {
        long count =
            delta(channel.name() + "\u0000" + reason.getKey(), "reason", reason.getValue());
        if (count > 0) {
          if (errors == null) {
            errors = JSON.createObjectNode();
          }
          errors.put(reason.getKey(), count);
          if (errorCounts != null) {
            errorCounts.put(reason.getKey(), count);
          }
        }
      }
      if (ok + ko + sent + bytes == 0 && errors == null) {
        continue;
      }
      if (errorCounts != null) {
        listeners.request(
            channel.name(),
            sent,
            intervals.get(channel.okRecorder()).reuse,
            koRecorder == null ? null : intervals.get(koRecorder).reuse,
            errorCounts);
      }
      ObjectNode entry = requests.putObject(channel.name());
      entry.put("sent", sent);
      entry.put("ok", ok);
      entry.put("ko", ko);
      if (bytes > 0) {
        entry.put("bytes", bytes);
      }
      if (errors != null) {
        entry.set("errors", errors);
      }
    }

    // Right after the last request histogram's swap, before the metrics, counters and gauges (a
    // gauge may take a while): what a listener notes here agrees with these request counts but for
    // what was recorded in the moments since (TopicClient's acknowledgement cut).
    listeners.requestsEnd();
    ObjectNode metricCounts = line.putObject("metrics");
    for (LatencyMetric metric : metrics) {
      long count = logInterval(metric.recorder(), Tags.metric(metric.name()), now);
      if (count > 0) {
        metricCounts.put(metric.name(), count);
        listeners.metric(metric.name(), intervals.get(metric.recorder()).reuse);
      }
    }
    ObjectNode counterDeltas = line.putObject("counters");
    for (Counter counter : counters) {
      long increase = delta(counter, "total", counter.total());
      counterDeltas.put(counter.name(), increase);
      listeners.counter(counter.name(), increase);
    }
    ObjectNode gaugeValues = line.putObject("gauges");
    gauges.forEach(
        (name, gauge) -> {
          double value;
          try {
            value = gauge.getAsDouble();
          } catch (RuntimeException e) {
            return; // a gauge that fails this second is simply missing from it
          }
          if (Double.isFinite(value)) {
            gaugeValues.put(name, value);
            listeners.gauge(name, value);
          }
        });
    listeners.intervalEnd(now, (now - startEpochMs) / 1000.0);

    try {
      counterLines.write(JSON.writeValueAsString(line));
      counterLines.write('\n');
      counterLines.flush();
    } catch (IOException e) {
      throw counterWriteFailed(e);
    }
    flushHistograms();
    lastFlushEpochMs = now;
  }

  /** Swaps the recorder's interval out, writes it if it is not empty, and adds it to the totals. */
  private long logInterval(StripedRecorder recorder, String tag, long now) {
    Interval interval = intervals.computeIfAbsent(recorder, r -> new Interval());
    Histogram histogram = recorder.getIntervalHistogram(interval.reuse);
    interval.reuse = histogram;
    long count = histogram.getTotalCount();
    if (count == 0) {
      return 0;
    }
    histogram.setTag(tag);
    histogram.setStartTimeStamp(lastFlushEpochMs);
    histogram.setEndTimeStamp(now);
    histogramLog.outputIntervalHistogram(
        (lastFlushEpochMs - startEpochMs) / 1000.0,
        (now - startEpochMs) / 1000.0,
        histogram,
        Latencies.MICROS_PER_MILLI);
    totals.computeIfAbsent(tag, t -> Latencies.newHistogram()).add(histogram);
    return count;
  }

  private long delta(Object owner, String what, long total) {
    Long previous = lastTotals.put(new Key(owner, what), total);
    return previous == null ? total : total - previous;
  }

  private record Key(Object owner, String what) {}

  /** Whether any request interval (OK or KO) was written so far. */
  boolean anyRequest() {
    return totals.keySet().stream()
        .anyMatch(tag -> Tags.parse(tag).map(Tags.Parsed::isRequest).orElse(false));
  }

  /** The whole-run histogram of a tag so far, or null when nothing was recorded under it. */
  Histogram total(String tag) {
    Histogram total = totals.get(tag);
    return total == null ? null : total.copy();
  }

  @Override
  public void close() {
    histogramLog.close();
    try {
      counterLines.close();
    } catch (IOException e) {
      throw counterWriteFailed(e);
    } finally {
      try {
        // the file itself, which a writer whose last bytes failed leaves open
        counterFailure.close();
      } catch (IOException alreadyKept) {
        // the failure is the one thrown above
      }
    }
    if (histogramFailure.failure() != null) {
      throw new RecordWriteException(histogramFile, histogramFailure.failure());
    }
  }
}
