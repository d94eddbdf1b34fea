package io.fusillade.sql;

import io.fusillade.record.RunEvent;
import io.fusillade.record.RunEvents;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which nodes of a cluster are <em>stalled</em>: alive, their connections open, but answering
 * nothing, as a paused (SIGSTOP) or frozen server does. Failover cannot see them: no connection is
 * refused or reset, and a TCP connection to the port still succeeds (the kernel accepts it).
 *
 * <p>A node is stalled when it holds requests and none has been answered for {@value #FACTOR} times
 * its usual answer time (an exponential average of its latencies), and at least {@value
 * #MIN_STALL_MS} ms: a node that answers anything, however slowly, is not stalled, and a workload
 * of long queries raises its own threshold. While stalled, the balancer sends new requests to the
 * other nodes (to it only when no other node is live), and the requests it holds wait for it: their
 * latency shows the stall. Its first answer ends the stall. Both moments are events of the run
 * ({@link RunEvent#NODE_STALLED}, {@link RunEvent#NODE_ANSWERING}).
 *
 * <p>Lock-free: a few atomic operations per request. The average is updated without
 * synchronisation; a lost update only makes it a little older.
 */
final class NodeStalls {
  /** The shortest stall, however fast the node usually answers. */
  static final long MIN_STALL_MS = 1_000;

  /** How many usual answer times without an answer make a stall. */
  static final int FACTOR = 10;

  private static final long MIN_STALL_NANOS = MIN_STALL_MS * 1_000_000;

  private final List<String> names;
  private final RunEvents events;
  private final AtomicIntegerArray inFlight;
  private final AtomicLongArray
      lastProgress; // nanoTime of the last answer, or of a send after idle
  private final AtomicLongArray usualNanos; // exponential average of the latency
  private final AtomicIntegerArray stalled; // 1 while stalled
  private final AtomicLongArray stalledSince;

  NodeStalls(List<String> names, RunEvents events) {
    this.names = List.copyOf(names);
    this.events = events;
    int n = names.size();
    inFlight = new AtomicIntegerArray(n);
    lastProgress = new AtomicLongArray(n);
    long now = System.nanoTime();
    for (int i = 0; i < n; i++) {
      lastProgress.set(i, now);
    }
    usualNanos = new AtomicLongArray(n);
    stalled = new AtomicIntegerArray(n);
    stalledSince = new AtomicLongArray(n);
  }

  /** A request was sent to {@code node} at {@code nowNanos}. */
  void sent(int node, long nowNanos) {
    // An idle node's silence starts now: set before the count shows a request waiting, so that
    // no reader sees one waiting since an old answer.
    if (inFlight.get(node) == 0) {
      lastProgress.set(node, nowNanos);
    }
    inFlight.incrementAndGet(node);
  }

  /**
   * A request sent to {@code node} at {@code sentNanos} ended at {@code endNanos}; {@code
   * fromServer} when the server answered it (not a timeout of the client's, nor a lost connection):
   * only such an answer is progress, ends a stall and counts in the usual time.
   */
  void ended(int node, long sentNanos, long endNanos, boolean fromServer) {
    inFlight.decrementAndGet(node);
    if (!fromServer) {
      return;
    }
    lastProgress.set(node, endNanos);
    long latency = Math.max(0, endNanos - sentNanos);
    long usual = usualNanos.get(node);
    usualNanos.set(node, usual == 0 ? latency : usual + (latency - usual) / 8);
    if (stalled.get(node) == 1 && stalled.compareAndSet(node, 1, 0)) {
      events.event(
          RunEvent.NODE_ANSWERING,
          names.get(node),
          String.format(
              Locale.ROOT, "stalled for %.1f s", (endNanos - stalledSince.get(node)) / 1e9));
    }
  }

  /**
   * Whether {@code node} is stalled at {@code nowNanos}; the first call that finds it so records
   * the event.
   */
  boolean isStalled(int node, long nowNanos) {
    int waiting = inFlight.get(node);
    if (waiting == 0) {
      return false;
    }
    long quiet = nowNanos - lastProgress.get(node);
    if (quiet <= Math.max(MIN_STALL_NANOS, FACTOR * usualNanos.get(node))) {
      return false;
    }
    if (stalled.get(node) == 0 && stalled.compareAndSet(node, 0, 1)) {
      stalledSince.set(node, lastProgress.get(node));
      events.event(
          RunEvent.NODE_STALLED,
          names.get(node),
          String.format(
              Locale.ROOT,
              "no answer for %.1f s, %d request%s waiting",
              quiet / 1e9,
              waiting,
              waiting == 1 ? "" : "s"));
    }
    return true;
  }
}
