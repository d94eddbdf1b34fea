package io.fusillade.record;

import java.util.concurrent.atomic.LongAdder;

/**
 * Where a protocol reports the requests of one name. Thread-safe and wait-free on the OK path:
 * protocols look their channel up once and keep it.
 *
 * <p>Latency is always taken from the <em>intended start</em>: the {@link System#nanoTime()} at
 * which the request was due, read when the action was entered, before any queueing for a thread or
 * a connection. Time spent waiting inside the load generator is therefore part of the latency, as
 * the user of the system would have experienced it (no coordinated omission).
 */
public final class RequestChannel {
  private final String name;
  private final StripedRecorder ok = new StripedRecorder();
  // Created on the first failure: most request names never fail, and a histogram weighs ~200 KB.
  private volatile StripedRecorder ko;
  private final LongAdder sent = new LongAdder();
  private final LongAdder bytes = new LongAdder();
  private final ErrorReasons reasons = new ErrorReasons();

  RequestChannel(String name) {
    this.name = name;
  }

  /** The request name, as it appears in reports. */
  public String name() {
    return name;
  }

  /**
   * Counts a request as sent (entered), for the per-second arrival rate. Call once per request,
   * when the action is entered.
   */
  public void sent() {
    sent.increment();
  }

  /** Records a successful request. */
  public void ok(long intendedStartNanos, long endNanos) {
    ok.recordValue(Latencies.micros(intendedStartNanos, endNanos));
  }

  /**
   * Records a failed request with a short reason ("SQLState 40001: could not serialize", "HTTP
   * 429", "injector queue full"). Reasons are counted per distinct text, so keep ids out of them.
   * Reports tell who failed from the text alone ({@link FailureClass#of}): start the injector's own
   * failures with "injector", and make network failures say so ("connection refused", "timed out",
   * or a "network:" prefix); anything else is blamed on the server.
   */
  public void ko(long intendedStartNanos, long endNanos, String reason) {
    koRecorder().recordValue(Latencies.micros(intendedStartNanos, endNanos));
    reasons.count(reason);
  }

  /** Records a request with the given status; {@code reason} is ignored for {@link Status#OK}. */
  public void record(long intendedStartNanos, long endNanos, Status status, String reason) {
    if (status == Status.OK) {
      ok(intendedStartNanos, endNanos);
    } else {
      ko(intendedStartNanos, endNanos, reason);
    }
  }

  /**
   * Adds payload bytes moved by this request name (request plus response, as the protocol sees it).
   */
  public void bytes(long count) {
    bytes.add(count);
  }

  private StripedRecorder koRecorder() {
    StripedRecorder recorder = ko;
    if (recorder == null) {
      synchronized (this) {
        recorder = ko;
        if (recorder == null) {
          recorder = new StripedRecorder();
          ko = recorder;
        }
      }
    }
    return recorder;
  }

  // --- read side, used by the flusher thread only ---

  StripedRecorder okRecorder() {
    return ok;
  }

  StripedRecorder koRecorderOrNull() {
    return ko;
  }

  long sentTotal() {
    return sent.sum();
  }

  long bytesTotal() {
    return bytes.sum();
  }

  ErrorReasons reasons() {
    return reasons;
  }
}
