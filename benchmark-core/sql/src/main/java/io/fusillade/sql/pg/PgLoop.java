package io.fusillade.sql.pg;

import io.fusillade.sql.SqlClient;
import io.fusillade.sql.SqlOutcome;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * A node's connections that live on one event loop, and the requests in flight on them. A request
 * from a virtual user on this loop goes to its least busy connection and its answer comes back on
 * the same thread, so no request ever changes threads. Only the loop's thread touches this.
 *
 * <p>Requests are pipelined, but never behind a request the server has been working on for over
 * {@link #STALLED_NANOS} (a lock wait, a slow query) when another connection is free of one; when
 * every connection is, requests wait here in arrival order and go as soon as a connection is done
 * with its stalled request.
 */
final class PgLoop {
  /** How long a node that refused a connection is left alone before the next attempt. */
  private static final long RECONNECT_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  /**
   * How long the server may work on a connection's oldest request at least before new requests
   * prefer other connections: far above a point query's time, far below a lock wait's (and longer
   * for a connection whose answers usually take longer: {@link PgConnection#stalled}).
   */
  static final long STALLED_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  final EventLoop executor;
  private final PgClient client;
  private final PgConnection[] connections;
  private final int capacity;
  private int inFlight;

  /** Requests that came while every connection was stalled, in arrival order. */
  private final ArrayDeque<PgRequest> waiting = new ArrayDeque<>();

  private boolean draining;
  private long reconnectNotBefore;
  private ScheduledFuture<?> sweep;

  PgLoop(EventLoop executor, PgClient client, int connections, int capacity) {
    this.executor = executor;
    this.client = client;
    this.connections = new PgConnection[connections];
    this.capacity = capacity;
  }

  /** Opens the connections and starts the timeout sweep; call before any request. */
  void start() {
    for (int i = 0; i < connections.length; i++) {
      connections[i] = client.connect(this);
    }
    sweep = executor.scheduleAtFixedRate(this::expire, 100, 100, TimeUnit.MILLISECONDS);
  }

  PgConnection[] connections() {
    return connections;
  }

  /** Takes a request: on this loop's thread. */
  void submit(PgRequest request) {
    if (client.isClosing()) {
      request.fail(SqlOutcome.ko("injector shut down"));
      return;
    }
    String down = client.downReason();
    if (down != null) {
      request.fail(SqlOutcome.connectionFailure(down)); // the node went down on the way here
      return;
    }
    if (inFlight >= capacity) {
      request.fail(SqlOutcome.ko(SqlClient.QUEUE_FULL));
      return;
    }
    inFlight++;
    // behind those that came first; else on the best connection, unless every one is stalled
    if (!waiting.isEmpty() || !dispatch(request, System.nanoTime())) {
      waiting.add(request);
    }
  }

  /**
   * Sends a request on the best connection (or fails it, when the node refuses connections), unless
   * every connection is stalled on a request the server has been working on for a while.
   *
   * @return false when it must wait
   */
  private boolean dispatch(PgRequest request, long now) {
    PgConnection connection = pick();
    if (connection.isClosed()) {
      inFlight--;
      request.fail(connection.closing()); // the node refuses connections: fail fast
      return true;
    }
    if (connection.pending() > 0 && connection.stalled(now, STALLED_NANOS)) {
      // Pipelined behind a statement that waits on a lock, it would wait as long: it waits here
      // instead, for the first connection to be done with what it has (as a JDBC pool's queue).
      return false;
    }
    connection.send(request);
    return true;
  }

  /** Called once for every request {@link #submit} passed on, when it has ended. */
  void finished() {
    inFlight--;
    if (!waiting.isEmpty()) {
      // A connection is done with a request, so it may no longer be stalled: the waiting requests
      // go as new ones would (a user's next request is sent from here as well, on its answer).
      drain();
    }
  }

  /**
   * Sends the waiting requests, in order, while a connection that is not stalled takes them. Not
   * again from within: a request ended here calls {@link #finished}.
   */
  private void drain() {
    if (draining) {
      return;
    }
    draining = true;
    try {
      long now = System.nanoTime();
      expireWaiting(now); // never sent to time out at once on a fresh connection
      String down = client.downReason();
      for (PgRequest next = waiting.pollFirst(); next != null; next = waiting.pollFirst()) {
        if (down != null) {
          inFlight--;
          next.fail(SqlOutcome.connectionFailure(down));
        } else if (!dispatch(next, now)) {
          waiting.addFirst(next); // still every connection stalled
          return;
        }
      }
    } finally {
      draining = false;
    }
  }

  /** Fails the waiting requests past their timeout: never sent, they need no cancel. */
  private void expireWaiting(long now) {
    for (java.util.Iterator<PgRequest> i = waiting.iterator(); i.hasNext(); ) {
      PgRequest request = i.next();
      if (request.expired(now)) {
        i.remove();
        inFlight--;
        request.fail(SqlOutcome.timedOut(request.timeout));
      }
    }
  }

  int inFlight() {
    return inFlight;
  }

  /**
   * The open connection with the fewest requests, among those not {@linkplain PgConnection#stalled
   * stalled} when there is one: a request pipelined behind a statement that waits on a lock would
   * wait as long, a latency of the client's making, not the server's. A closed one is replaced
   * first, unless the node refused a connection less than the back-off ago: when every connection
   * is closed, a closed one comes back, and its reason fails the request at once.
   */
  private PgConnection pick() {
    PgConnection best = null;
    boolean bestStalled = false;
    long now = System.nanoTime();
    for (int i = 0; i < connections.length; i++) {
      PgConnection connection = connections[i];
      if (connection.isClosed() && (!connection.refused() || now - reconnectNotBefore >= 0)) {
        connection = connections[i] = client.connect(this);
      }
      if (connection.isClosed()) {
        continue;
      }
      boolean stalled = connection.stalled(now, STALLED_NANOS);
      if (best == null
          || (bestStalled && !stalled)
          || (stalled == bestStalled && connection.pending() < best.pending())) {
        best = connection;
        bestStalled = stalled;
      }
    }
    return best != null ? best : connections[0];
  }

  PgClient client() {
    return client;
  }

  /**
   * A connection that was serving closed without being asked to (the server ended it, or it was
   * reset): open it again now, before a request needs it, so that a node that has gone is found
   * down by the refused connection rather than by the next request.
   */
  void reopen(PgConnection lost) {
    if (client.isClosing() || client.downReason() != null) {
      return; // the probe brings the node back; the next requests reopen the connections
    }
    for (int i = 0; i < connections.length; i++) {
      if (connections[i] == lost) {
        connections[i] = client.connect(this);
        return;
      }
    }
  }

  /** A connection of this loop was refused: wait a little before the next attempt. */
  void refused() {
    reconnectNotBefore = System.nanoTime() + RECONNECT_BACKOFF_NANOS;
  }

  private void expire() {
    long now = System.nanoTime();
    drain(); // a connection opened again, a stall that ended without an answer; the timed out
    String down = client.downReason();
    for (PgConnection connection : connections) {
      if (down != null && connection.isStarting()) {
        // The node went down while this connection was starting: what waits on it fails now,
        // not when its connect attempt gives up.
        connection.terminate(SqlOutcome.connectionFailure(down));
      } else {
        connection.expire(now, client.connectTimeoutNanos());
      }
    }
  }

  /** Closes the connections; what is still in flight ends with "injector shut down". */
  void close() {
    if (sweep != null) {
      sweep.cancel(false);
    }
    for (PgRequest request = waiting.poll(); request != null; request = waiting.poll()) {
      inFlight--;
      request.fail(SqlOutcome.ko("injector shut down"));
    }
    for (PgConnection connection : connections) {
      if (connection != null) {
        connection.terminate(SqlOutcome.ko("injector shut down"));
      }
    }
  }
}
