package io.fusillade.system;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code fusillade agent}: a small HTTP server that serves this machine's {@code /proc} metrics on
 * {@code /metrics} in {@code node_exporter}'s names ({@link NodeMetricsText}), for a server host
 * where no exporter runs. A run then records it with a {@link ServerTarget} like any exporter.
 *
 * <pre>{@code
 * try (NodeAgent agent = NodeAgent.start(new InetSocketAddress(9101), List.of(Path.of("/")))) {
 *   ... agent.url() ...
 * }
 * }</pre>
 */
public final class NodeAgent implements AutoCloseable {
  /** The port the agent listens on unless told: next to node_exporter's 9100. */
  public static final int DEFAULT_PORT = 9101;

  private final HttpServer server;

  private NodeAgent(HttpServer server) {
    this.server = server;
  }

  /**
   * Starts serving.
   *
   * @param address where to listen (port 0: any free one)
   * @param filesystems the mount points whose use is served
   * @return the running agent
   * @throws IOException when the address cannot be listened on
   */
  public static NodeAgent start(InetSocketAddress address, List<Path> filesystems)
      throws IOException {
    NodeMetricsText metrics =
        new NodeMetricsText(Path.of("/proc"), Path.of("/sys/block"), filesystems);
    HttpServer server = HttpServer.create(address, 16);
    server.createContext(
        "/metrics",
        exchange -> {
          byte[] body = metrics.render().getBytes(StandardCharsets.UTF_8);
          exchange
              .getResponseHeaders()
              .set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.createContext(
        "/",
        exchange -> {
          byte[] body = "Fusillade agent: metrics on /metrics\n".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(
              exchange.getRequestURI().getPath().equals("/") ? 200 : 404, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    return new NodeAgent(server);
  }

  /**
   * The port listened on.
   *
   * @return the port
   */
  public int port() {
    return server.getAddress().getPort();
  }

  /**
   * The metrics' URL on loopback.
   *
   * @return e.g. {@code http://127.0.0.1:9101/metrics}
   */
  public String url() {
    return "http://127.0.0.1:" + port() + "/metrics";
  }

  /** Stops serving. */
  @Override
  public void close() {
    server.stop(0);
  }
}
