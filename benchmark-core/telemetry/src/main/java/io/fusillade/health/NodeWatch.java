package io.fusillade.health;

import io.fusillade.record.RunEvent;
import io.fusillade.record.RunEvents;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Whether each node of a system under test is up, for clients that fail fast on a dead node.
 *
 * <p>A client calls {@link #markDown(int, String)} as soon as a connection to a node is refused,
 * reset or times out ({@link ConnectFailures}). While the node is down, {@link #isDown(int)} is
 * true: the client sends its requests to a live node, or fails them at once with {@link
 * #reason(int)} ("connection refused: 127.0.0.1:5432") instead of queueing them behind a pool's
 * connect timeout. A background probe tries the node again after {@link Backoff#first()}, then
 * after twice as long each time up to {@link Backoff#max()}; when the probe succeeds the node is
 * up; while it fails, the node's {@link #reason(int)} becomes the one the probe saw (a node marked
 * down for a reset connection is "connection refused" once its server has gone). Each change is a
 * {@link RunEvent} ({@link RunEvent#NODE_DOWN} with the reason, {@link RunEvent#NODE_UP} with how
 * long the node was down), which the reports draw as a band on the time charts.
 *
 * <p>Thread-safe; {@link #isDown(int)} is one volatile read, cheap enough for every request.
 */
public final class NodeWatch implements AutoCloseable {

  /**
   * Tries whether a node answers again.
   *
   * <p>Throws when it does not; returns normally when the node can take requests.
   */
  @FunctionalInterface
  public interface Probe {
    /**
     * @param node the node's index
     * @throws Exception when the node still cannot be reached
     */
    void check(int node) throws Exception;
  }

  /**
   * The waits between probes of a down node: {@code first}, then doubling, never above {@code max}.
   *
   * @param first the wait before the first probe
   * @param max the longest wait
   */
  public record Backoff(Duration first, Duration max) {
    /** 100 ms, doubling to 2 s: a restarted node is back in use within 2 s of accepting. */
    public static final Backoff DEFAULT =
        new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2));

    public Backoff {
      if (first.isNegative() || first.isZero() || max.compareTo(first) < 0) {
        throw new IllegalArgumentException(
            "back-off needs 0 < first <= max: " + first + ", " + max);
      }
    }

    long delayMillis(int attempt) {
      long delay = first.toMillis() << Math.min(attempt, 20);
      return Math.min(delay, max.toMillis());
    }
  }

  private record Down(String reason, long sinceNanos) {}

  private final List<String> nodes;
  private final Probe probe;
  private final RunEvents events;
  private final Backoff backoff;
  private final AtomicReferenceArray<Down> down;
  private final ScheduledExecutorService prober;

  /**
   * @param nodes the nodes' names as events and reasons give them ({@code host:port}, never with
   *     credentials)
   * @param probe how to try a down node
   * @param events where node down/up go (the run recorder), or {@link RunEvents#NONE}
   * @param backoff the waits between probes
   */
  public NodeWatch(List<String> nodes, Probe probe, RunEvents events, Backoff backoff) {
    this.nodes = List.copyOf(nodes);
    this.probe = Objects.requireNonNull(probe, "probe");
    this.events = Objects.requireNonNull(events, "events");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.down = new AtomicReferenceArray<>(this.nodes.size());
    this.prober =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "fusillade-node-probe");
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * A watch whose probe opens a TCP connection to the node ({@code host:port}) and closes it:
   * enough to tell a stopped server from a started one.
   *
   * @param nodes the nodes as {@code host:port}
   * @param events where node down/up go
   * @return the watch, with {@link Backoff#DEFAULT}
   */
  public static NodeWatch tcp(List<String> nodes, RunEvents events) {
    List<String> copy = List.copyOf(nodes);
    return new NodeWatch(copy, node -> connect(copy.get(node), 1_000), events, Backoff.DEFAULT);
  }

  /**
   * Opens and closes a TCP connection to {@code hostPort}.
   *
   * @param hostPort {@code host:port} (an IPv6 host in brackets)
   * @param timeoutMillis the connect timeout
   * @throws java.io.IOException when the connection fails
   */
  public static void connect(String hostPort, int timeoutMillis) throws java.io.IOException {
    int colon = hostPort.lastIndexOf(':');
    String host = hostPort.substring(0, colon).replace("[", "").replace("]", "");
    int port = Integer.parseInt(hostPort.substring(colon + 1));
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), timeoutMillis);
    }
  }

  /** The number of nodes. */
  public int size() {
    return nodes.size();
  }

  /** The name of node {@code node}. */
  public String node(int node) {
    return nodes.get(node);
  }

  /** Whether node {@code node} is down now. */
  public boolean isDown(int node) {
    return down.get(node) != null;
  }

  /** Whether every node is down. */
  public boolean allDown() {
    for (int i = 0; i < nodes.size(); i++) {
      if (down.get(i) == null) {
        return false;
      }
    }
    return true;
  }

  /**
   * Why node {@code node} is down ("connection refused: 127.0.0.1:5432"), or null when it is up:
   * the reason to fail a request to it with at once.
   */
  public String reason(int node) {
    Down d = down.get(node);
    return d == null ? null : d.reason();
  }

  /**
   * Marks node {@code node} down, unless it already is: records a {@link RunEvent#NODE_DOWN} event
   * and starts probing it.
   *
   * @param node the node's index
   * @param reason why, as requests to it will fail: "connection refused: 127.0.0.1:5432"
   * @return true when the node was up until now
   */
  public boolean markDown(int node, String reason) {
    if (!down.compareAndSet(node, null, new Down(reason, System.nanoTime()))) {
      return false;
    }
    events.event(RunEvent.NODE_DOWN, nodes.get(node), reason);
    schedule(node, 0);
    return true;
  }

  /**
   * Marks node {@code node} up, unless it already is: for a client that learned it from a request
   * that succeeded before the probe did.
   */
  public void markUp(int node) {
    Down was = down.getAndSet(node, null);
    if (was != null) {
      long downMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - was.sinceNanos());
      events.event(RunEvent.NODE_UP, nodes.get(node), "down for " + downMs + " ms");
    }
  }

  private void schedule(int node, int attempt) {
    try {
      prober.schedule(
          () -> probe(node, attempt), backoff.delayMillis(attempt), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closed) {
      // the watch was closed: nothing to probe for any more
    }
  }

  private void probe(int node, int attempt) {
    if (down.get(node) == null) {
      return;
    }
    try {
      probe.check(node);
    } catch (Exception stillDown) {
      ConnectFailures.kind(stillDown)
          .ifPresent(kind -> refine(node, ConnectFailures.reason(kind, nodes.get(node))));
      schedule(node, attempt + 1);
      return;
    }
    markUp(node);
  }

  /**
   * Gives a down node the reason its latest probe failed with, keeping the moment it went down: a
   * node first seen failing by a reset connection is, once its server has gone, one that refuses
   * connections, and the requests failed meanwhile should say so. No event is written.
   */
  private void refine(int node, String reason) {
    Down current = down.get(node);
    if (current != null && !current.reason().equals(reason)) {
      down.compareAndSet(node, current, new Down(reason, current.sinceNanos()));
    }
  }

  /** Stops probing. Nodes still down stay so; no event is written for them. */
  @Override
  public void close() {
    prober.shutdownNow();
  }
}
