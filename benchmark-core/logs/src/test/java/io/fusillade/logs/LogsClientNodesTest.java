package io.fusillade.logs;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.fusillade.record.FailureClass;
import io.fusillade.record.RunEvent;
import io.fusillade.record.RunEvents;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A node that refuses connections is marked down at once: requests go to the live nodes, or, when
 * none is live, fail at once naming the refused node; the probe brings it back. The nodes are real
 * HTTP servers (the JDK's) answering as a store would, and a port nothing listens on.
 */
@Tag("slow") // waits for the probe, up to a few seconds
class LogsClientNodesTest {
  private static final String SEARCH_ANSWER = "{\"hits\":{\"total\":{\"value\":0},\"hits\":[]}}";
  private static final String BULK_ANSWER =
      "{\"took\":1,\"errors\":false,\"items\":[{\"index\":{\"status\":201}}]}";

  private final List<HttpServer> servers = new CopyOnWriteArrayList<>();
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final RunEvents recorder = (kind, target, detail) -> events.add(kind + " " + target);

  @AfterEach
  void stopServers() {
    servers.forEach(s -> s.stop(0));
  }

  /** A store node on {@code port} (0: any) answering every bulk and search; returns its port. */
  private int serve(int port) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    server.createContext(
        "/",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          String path = exchange.getRequestURI().getPath();
          byte[] body =
              (path.endsWith("/_bulk") ? BULK_ANSWER : SEARCH_ANSWER)
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    servers.add(server);
    return server.getAddress().getPort();
  }

  /** A port nothing listens on (until a test starts a server on it). */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static JsonBuffer oneDocument() {
    JsonBuffer body = new JsonBuffer(64);
    byte[] ndjson = "{\"index\":{}}\n{\"a\":1}\n".getBytes(StandardCharsets.UTF_8);
    body.raw(ndjson);
    return body;
  }

  @Test
  void aRefusedNodeIsLeftOutAndItsRequestsGoToTheLiveOne() throws Exception {
    int dead = closedPort();
    int live = serve(0);
    try (LogsClient client =
        LogsClient.open(
            LogsClientOptions.of("http://127.0.0.1:" + dead, "http://127.0.0.1:" + live),
            recorder)) {
      for (int i = 0; i < 20; i++) {
        assertThat(client.bulk("logs", oneDocument(), false, 1).join().ok()).isTrue();
        assertThat(client.search("logs", "{}", "").join().ok()).isTrue();
      }
      assertThat(client.nodes().isDown(0)).isTrue();
      assertThat(client.nodes().reason(0)).isEqualTo("connection refused: 127.0.0.1:" + dead);
      assertThat(events).containsExactly(RunEvent.NODE_DOWN + " 127.0.0.1:" + dead);
    }
  }

  @Test
  void withEveryNodeDownRequestsFailAtOnceNamingTheNodeAndTheProbeBringsItBack() throws Exception {
    int port = closedPort();
    try (LogsClient client =
        LogsClient.open(LogsClientOptions.of("http://127.0.0.1:" + port), recorder)) {
      BulkResult first = client.bulk("logs", oneDocument(), false, 1).join();
      String reason = "connection refused: 127.0.0.1:" + port;
      assertThat(first.reason()).isEqualTo(reason);
      assertThat(FailureClass.of(first.reason())).isEqualTo(FailureClass.NETWORK);
      long start = System.nanoTime();
      for (int i = 0; i < 1000; i++) {
        assertThat(client.bulk("logs", oneDocument(), false, 1).join().reason()).isEqualTo(reason);
        assertThat(client.search("logs", "{}", "").join().error()).isEqualTo(reason);
      }
      // Failed without a connection attempt each: far under a millisecond a request.
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(1000);

      serve(port);
      long restarted = System.nanoTime();
      while (!client.bulk("logs", oneDocument(), false, 1).join().ok()) {
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restarted))
            .as("back in use within the probe's longest wait")
            .isLessThan(3000);
        Thread.sleep(20);
      }
      assertThat(events)
          .containsExactly(
              RunEvent.NODE_DOWN + " 127.0.0.1:" + port, RunEvent.NODE_UP + " 127.0.0.1:" + port);
    }
  }
}
