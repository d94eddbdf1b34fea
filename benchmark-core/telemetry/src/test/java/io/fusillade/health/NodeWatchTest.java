package io.fusillade.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunEvent;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A node marked down is failed fast, probed with back-off over real TCP, and comes back. */
class NodeWatchTest {
  private final List<String> events = new CopyOnWriteArrayList<>();

  private NodeWatch watch(List<String> nodes, NodeWatch.Probe probe) {
    return new NodeWatch(
        nodes,
        probe,
        (kind, target, detail) -> events.add(kind + " " + target + " " + detail),
        new NodeWatch.Backoff(Duration.ofMillis(20), Duration.ofMillis(80)));
  }

  @Test
  void aNodeIsDownOnceWithItsReasonAndUpWhenItsPortAcceptsAgain() throws Exception {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    int port;
    try (ServerSocket probePort = new ServerSocket(0, 50, loopback)) {
      port = probePort.getLocalPort(); // free now: nothing listens on it
    }
    String node = loopback.getHostAddress() + ":" + port;
    try (NodeWatch watch = NodeWatch.tcp(List.of(node), this::record)) {
      String reason = ConnectFailures.reason(ConnectFailures.REFUSED, node);
      assertThat(watch.markDown(0, reason)).isTrue();
      assertThat(watch.markDown(0, reason)).as("already down: no second event").isFalse();
      assertThat(watch.isDown(0)).isTrue();
      assertThat(watch.allDown()).isTrue();
      assertThat(watch.reason(0)).isEqualTo("connection refused: " + node);
      Thread.sleep(300); // probes fail meanwhile: still down
      assertThat(watch.isDown(0)).isTrue();

      try (ServerSocket server = new ServerSocket()) {
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(loopback, port));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (watch.isDown(0) && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertThat(watch.isDown(0)).as("up within the back-off's max (2 s) of accepting").isFalse();
      }
    }
    assertThat(events).hasSize(2);
    assertThat(events.get(0))
        .isEqualTo(RunEvent.NODE_DOWN + " " + node + " connection refused: " + node);
    assertThat(events.get(1)).startsWith(RunEvent.NODE_UP + " " + node + " down for ");
  }

  private void record(String kind, String target, String detail) {
    events.add(kind + " " + target + " " + detail);
  }

  @Test
  void theProbeBacksOffFromFirstToMax() throws Exception {
    List<Long> probes = new CopyOnWriteArrayList<>();
    try (NodeWatch watch =
        watch(
            List.of("a:1", "b:2"),
            node -> {
              probes.add(System.nanoTime());
              throw new IOException("still down");
            })) {
      watch.markDown(1, "connection refused: b:2");
      assertThat(watch.isDown(0)).isFalse();
      assertThat(watch.allDown()).isFalse();
      Thread.sleep(600);
    }
    // 20, 40, 80, 80, 80... ms: the gaps grow, then stay at the max.
    assertThat(probes.size()).isBetween(4, 12);
    long lastGap = (probes.get(probes.size() - 1) - probes.get(probes.size() - 2)) / 1_000_000;
    assertThat(lastGap).isBetween(70L, 200L);
  }

  @Test
  void aClientThatSeesTheNodeAnswerMarksItUp() {
    try (NodeWatch watch = watch(List.of("a:1"), node -> {})) {
      watch.markDown(0, "connection reset: a:1");
      watch.markUp(0);
      watch.markUp(0);
      assertThat(watch.isDown(0)).isFalse();
    }
    assertThat(events).hasSize(2);
    assertThat(events.get(1)).startsWith("node-up a:1 down for ");
  }

  @Test
  void aDownNodeTakesTheReasonItsProbeFailsWith() throws Exception {
    try (NodeWatch watch =
        watch(
            List.of("a:1"),
            node -> {
              throw new IOException(new ConnectException("Connection refused"));
            })) {
      watch.markDown(0, "connection reset: a:1");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      while (watch.reason(0).startsWith("connection reset") && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(watch.reason(0)).isEqualTo("connection refused: a:1");
    }
    assertThat(events).containsExactly("node-down a:1 connection reset: a:1");
  }

  @Test
  void connectionFailuresAreNamedWhateverWrapsThem() {
    assertThat(
            ConnectFailures.kind(new RuntimeException(new ConnectException("Connection refused"))))
        .contains(ConnectFailures.REFUSED);
    assertThat(ConnectFailures.kind(new SocketException("Connection reset")))
        .contains(ConnectFailures.RESET);
    assertThat(ConnectFailures.kind(new java.net.SocketTimeoutException("Connect timed out")))
        .contains(ConnectFailures.CONNECT_TIMEOUT);
    assertThat(ConnectFailures.kind(new ConnectException("Network is unreachable")))
        .contains(ConnectFailures.NO_ROUTE);
    assertThat(ConnectFailures.kind(new IllegalStateException("relation does not exist")))
        .isEmpty();
    assertThat(
            io.fusillade.record.FailureClass.of(
                ConnectFailures.reason(ConnectFailures.REFUSED, "127.0.0.1:5432")))
        .isEqualTo(io.fusillade.record.FailureClass.NETWORK);
    assertThat(
            io.fusillade.record.FailureClass.of(
                ConnectFailures.reason(ConnectFailures.CONNECT_TIMEOUT, "h:1")))
        .isEqualTo(io.fusillade.record.FailureClass.NETWORK);
  }
}
