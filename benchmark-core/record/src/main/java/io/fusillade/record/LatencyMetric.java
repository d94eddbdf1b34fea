package io.fusillade.record;

/**
 * A distribution of durations that is not a request: injector lag, end-to-end message latency,
 * time-to-searchable. Written to the interval log beside the requests, under its own tag.
 */
public final class LatencyMetric {
  private final String name;
  private final StripedRecorder recorder = new StripedRecorder();

  LatencyMetric(String name) {
    this.name = name;
  }

  public String name() {
    return name;
  }

  /** Records one duration in microseconds (clamped to the trackable range). */
  public void recordMicros(long micros) {
    recorder.recordValue(Latencies.clampMicros(micros));
  }

  /** Records the duration between two {@link System#nanoTime()} readings. */
  public void record(long startNanos, long endNanos) {
    recorder.recordValue(Latencies.micros(startNanos, endNanos));
  }

  StripedRecorder recorder() {
    return recorder;
  }
}
