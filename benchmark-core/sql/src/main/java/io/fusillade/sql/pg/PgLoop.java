package io.fusillade.sql.pg;

import io.fusillade.sql.SqlClient;
import io.fusillade.sql.SqlOutcome;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A node's connections that live on one event loop, and the requests in flight on them. A request
 * from a virtual user on this loop goes to its least busy connection and its answer comes back on
 * the same thread, so no request ever changes threads. Only the loop's thread touches this.
 */
final class PgLoop {
  /** How long a node that refused a connection is left alone before the next attempt. */
  private static final long RECONNECT_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  final EventLoop executor;
  private final PgClient client;
  private final PgConnection[] connections;
  private final int capacity;
  private int inFlight;
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
    PgConnection connection = pick();
    if (connection.isClosed()) {
      request.fail(connection.closing()); // the node refuses connections: fail fast
      return;
    }
    inFlight++;
    connection.send(request);
  }

  /** Called once for every request {@link #submit} passed on, when it has ended. */
  void finished() {
    inFlight--;
  }

  int inFlight() {
    return inFlight;
  }

  /**
   * The open connection with the fewest requests. A closed one is replaced first, unless the node
   * refused a connection less than the back-off ago: when every connection is closed, a closed one
   * comes back, and its reason fails the request at once.
   */
  private PgConnection pick() {
    PgConnection best = null;
    for (int i = 0; i < connections.length; i++) {
      PgConnection connection = connections[i];
      if (connection.isClosed()
          && (!connection.refused() || System.nanoTime() - reconnectNotBefore >= 0)) {
        connection = connections[i] = client.connect(this);
      }
      if (!connection.isClosed() && (best == null || connection.pending() < best.pending())) {
        best = connection;
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
    String down = client.downReason();
    for (PgConnection connection : connections) {
      if (down != null && connection.isStarting()) {
        // The node went down while this connection was starting: what waits on it fails now,
        // not when its connect attempt gives up.
        connection.terminate(SqlOutcome.connectionFailure(down));
      } else {
        connection.expire(now, client.requestTimeoutNanos(), client.connectTimeoutNanos());
      }
    }
  }

  /** Closes the connections; what is still in flight ends with "injector shut down". */
  void close() {
    if (sweep != null) {
      sweep.cancel(false);
    }
    for (PgConnection connection : connections) {
      if (connection != null) {
        connection.terminate(SqlOutcome.ko("injector shut down"));
      }
    }
  }
}
