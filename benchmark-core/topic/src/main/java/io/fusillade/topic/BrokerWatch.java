package io.fusillade.topic;

import io.fusillade.health.ConnectFailures;
import io.fusillade.health.NodeWatch;
import io.fusillade.record.RunEvents;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Whether the brokers of the bootstrap list accept connections, so that sends fail at once while
 * none does.
 *
 * <p>Kafka's client hides a dead broker: with metadata cached, {@code send()} appends to a batch
 * that waits for the broker until {@code delivery.timeout.ms}, and every send of that wait would be
 * reported seconds later as a "delivery timeout". So a daemon thread opens (and closes) a TCP
 * connection to each bootstrap endpoint every {@link #CHECK_INTERVAL_MS} ms; one that refuses, or
 * does not accept within {@link #CONNECT_TIMEOUT_MS} ms, is marked down in a {@link NodeWatch}
 * (event {@code node-down}), whose probe (TCP, 100 ms doubling to 2 s) marks it up again (event
 * {@code node-up}). While every endpoint is down, {@link #allDownReason()} gives the reason sends
 * fail with: {@code "connection refused: 127.0.0.1:9092"}. With one broker of several down, the
 * client's own balancing (partition leaders move) handles it: only the events are recorded.
 *
 * <p>Only the bootstrap endpoints are watched: a cluster whose brokers advertise other addresses is
 * watched through the addresses the run was given.
 */
final class BrokerWatch implements AutoCloseable {
  /** How often an endpoint that is up is checked. */
  static final long CHECK_INTERVAL_MS = 250;

  /** How long a check waits for the endpoint to accept. */
  static final int CONNECT_TIMEOUT_MS = 1000;

  private final NodeWatch nodes;
  private final ScheduledExecutorService checker;

  /**
   * @param bootstrapServers {@code host:port[,host:port...]}
   * @param events where node down/up go (the run recorder)
   */
  BrokerWatch(String bootstrapServers, RunEvents events) {
    this.nodes = NodeWatch.tcp(endpoints(bootstrapServers), events);
    this.checker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "fusillade-topic-broker-check");
              t.setDaemon(true);
              return t;
            });
    checker.scheduleWithFixedDelay(
        this::check, CHECK_INTERVAL_MS, CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS);
  }

  /** The endpoints of a bootstrap list, as {@code host:port}, in order, without blanks. */
  static List<String> endpoints(String bootstrapServers) {
    return Arrays.stream(bootstrapServers.split(","))
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .map(s -> s.replaceFirst("^[A-Za-z0-9_]+://", "")) // SASL_SSL://host:port
        .toList();
  }

  /** The brokers' up/down state. */
  NodeWatch nodes() {
    return nodes;
  }

  /** The reason to fail a send with when every endpoint is down, else null. */
  String allDownReason() {
    return nodes.allDown() ? nodes.reason(0) : null;
  }

  private void check() {
    for (int i = 0; i < nodes.size(); i++) {
      if (nodes.isDown(i)) {
        continue; // the watch's probe brings it back
      }
      try {
        NodeWatch.connect(nodes.node(i), CONNECT_TIMEOUT_MS);
      } catch (IOException e) {
        String kind = ConnectFailures.kind(e).orElse(ConnectFailures.REFUSED);
        nodes.markDown(i, ConnectFailures.reason(kind, nodes.node(i)));
      } catch (RuntimeException notAnEndpoint) {
        // not host:port: Kafka's client reports it; never mark a node down for it
      }
    }
  }

  @Override
  public void close() {
    checker.shutdownNow();
    nodes.close();
  }
}
