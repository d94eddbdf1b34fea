package io.fusillade.secrets;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real HTTP reverse proxy that puts basic authentication in front of a node without it (the
 * embedded OpenSearch runs without its security plugin): a request without the right {@code
 * Authorization: Basic} header gets 401, as a secured OpenSearch answers; the others are forwarded
 * and the node's answer returned as it is.
 */
final class BasicAuthProxy implements AutoCloseable {
  private static final Set<String> FORWARDED =
      Set.of("content-type", "content-encoding", "accept", "accept-encoding");

  private final HttpServer server;
  private final ExecutorService workers = Executors.newFixedThreadPool(4);
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String upstream;
  private final String expected;
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();

  BasicAuthProxy(String upstream, String user, String password) throws IOException {
    this.upstream =
        upstream.endsWith("/") ? upstream.substring(0, upstream.length() - 1) : upstream;
    this.expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    server.setExecutor(workers);
    server.createContext("/", this::handle);
    server.start();
  }

  /** The proxy's base URL. */
  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  long accepted() {
    return accepted.get();
  }

  long refused() {
    return refused.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      if (!expected.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
        refused.incrementAndGet();
        byte[] answer =
            "{\"error\":\"missing or wrong credentials\",\"status\":401}"
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"OpenSearch\"");
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(401, answer.length);
        exchange.getResponseBody().write(answer);
        return;
      }
      accepted.incrementAndGet();
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(upstream + exchange.getRequestURI()))
              .timeout(Duration.ofSeconds(60))
              .method(
                  exchange.getRequestMethod(),
                  body.length == 0
                      ? HttpRequest.BodyPublishers.noBody()
                      : HttpRequest.BodyPublishers.ofByteArray(body));
      exchange
          .getRequestHeaders()
          .forEach(
              (name, values) -> {
                if (FORWARDED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                  values.forEach(v -> request.header(name, v));
                }
              });
      HttpResponse<byte[]> answer;
      try {
        answer = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        exchange.sendResponseHeaders(502, -1);
        return;
      }
      for (String name : List.of("content-type", "content-encoding")) {
        answer
            .headers()
            .firstValue(name)
            .ifPresent(v -> exchange.getResponseHeaders().add(name, v));
      }
      byte[] bytes = answer.body();
      boolean head = exchange.getRequestMethod().equals("HEAD");
      exchange.sendResponseHeaders(
          answer.statusCode(), head || bytes.length == 0 ? -1 : bytes.length);
      if (!head && bytes.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
  }
}
