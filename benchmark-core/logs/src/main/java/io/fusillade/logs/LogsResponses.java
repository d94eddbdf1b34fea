package io.fusillade.logs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.FusilladeException;
import io.fusillade.health.ConnectFailures;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;

/**
 * What {@link LogsClient} reads from an Elasticsearch-API answer or failure, as pure functions: a
 * search response's hits and buckets, the short and stable reason of an HTTP error or a transport
 * failure (which the record classes as the server's or the network's, {@link
 * io.fusillade.record.FailureClass}), and whether a failure means nothing reached the node. Apart
 * from the client so that it holds the requests and their routing only; seq-db's own search answers
 * are read by {@link SeqDbResponses}.
 */
final class LogsResponses {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private LogsResponses() {}

  /**
   * A URL's node as events and reasons name it: {@code host:port} (the scheme's default port when
   * the URL has none), never with credentials.
   */
  static String hostPort(String url) {
    URI uri = URI.create(url);
    int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
    String host = uri.getHost();
    if (host != null && host.contains(":") && !host.startsWith("[")) {
      host = "[" + host + "]";
    }
    return host + ":" + port;
  }

  static SearchResult parseSearch(byte[] body, long end) {
    JsonNode root;
    try {
      root = MAPPER.readTree(body);
    } catch (IOException e) {
      return new SearchResult(200, 0, -1, Map.of(), "unreadable search response", end);
    }
    JsonNode hits = root.path("hits");
    int count = hits.path("hits").size();
    JsonNode total = hits.path("total");
    long totalHits =
        total.isNumber() ? total.asLong() : total.has("value") ? total.get("value").asLong() : -1;
    Map<String, List<SearchResult.Bucket>> aggregations = new LinkedHashMap<>();
    root.path("aggregations")
        .fields()
        .forEachRemaining(e -> aggregations.put(e.getKey(), buckets(e.getValue())));
    return new SearchResult(200, count, totalHits, aggregations, null, end, root);
  }

  static List<SearchResult.Bucket> buckets(JsonNode aggregation) {
    List<SearchResult.Bucket> list = new ArrayList<>();
    for (JsonNode bucket : aggregation.path("buckets")) {
      Map<String, Double> values = new HashMap<>();
      bucket
          .fields()
          .forEachRemaining(
              e -> {
                JsonNode v = e.getValue().get("value");
                if (v != null && v.isNumber()) {
                  values.put(e.getKey(), v.asDouble());
                }
              });
      list.add(
          new SearchResult.Bucket(
              bucket.path("key").asText(), bucket.path("doc_count").asLong(), values));
    }
    return list;
  }

  /**
   * The kind of connection failure, or empty for anything else: a request timeout on an open
   * connection is the node being slow, not down.
   */
  static Optional<String> connectFailure(Throwable failure) {
    Throwable t = unwrap(failure);
    if (t instanceof HttpConnectTimeoutException) {
      return Optional.of(ConnectFailures.CONNECT_TIMEOUT);
    }
    if (t instanceof HttpTimeoutException) {
      return Optional.empty();
    }
    return ConnectFailures.kind(t);
  }

  /** Whether nothing reached the node: its connection was refused or not accepted in time. */
  static boolean refused(Throwable failure) {
    Optional<String> kind = connectFailure(failure);
    return kind.isPresent()
        && (kind.get().equals(ConnectFailures.REFUSED)
            || kind.get().equals(ConnectFailures.CONNECT_TIMEOUT));
  }

  static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  static FusilladeException failure(String what, String base, HttpResponse<String> r) {
    String body = r.body();
    String reason = body;
    try {
      JsonNode error = MAPPER.readTree(body).path("error");
      if (error.has("reason")) {
        reason = error.path("type").asText() + ": " + error.path("reason").asText();
      }
    } catch (IOException | RuntimeException e) {
      // keep the raw body
    }
    if (reason.length() > 300) {
      reason = reason.substring(0, 300) + "...";
    }
    return new FusilladeException(
        "could not "
            + what
            + " at "
            + LogsClientOptions.mask(base)
            + ": HTTP "
            + r.statusCode()
            + " "
            + reason);
  }

  /** A short, stable reason for an HTTP error status: the status and the error type. */
  static String httpError(int status, byte[] body) {
    String type = null;
    try {
      JsonNode root = MAPPER.readTree(body);
      JsonNode error = root.path("error");
      type = error.isTextual() ? null : error.path("type").asText(null);
      if (type == null && root.path("code").isInt()) {
        // seq-db's gRPC gateway: {"code":3,"message":"can't parse query ..."}
        type = GrpcCodes.name(root.path("code").asInt());
      }
    } catch (IOException | RuntimeException e) {
      // not JSON: the status alone
    }
    return "HTTP " + status + (type == null ? "" : " " + type);
  }

  /**
   * A short, stable reason for a transport failure, which reports class as the network's ({@link
   * io.fusillade.record.FailureClass}): "connection refused: host:port", "connect timeout:
   * host:port", "connection reset: host:port" (the names of {@link ConnectFailures}), "request
   * timeout", else "network: IOException (URL)".
   */
  static String describe(Throwable failure, String base) {
    Throwable t = failure;
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    String where = " (" + LogsClientOptions.mask(base) + ")";
    if (t instanceof HttpConnectTimeoutException) {
      return ConnectFailures.reason(ConnectFailures.CONNECT_TIMEOUT, hostPort(base));
    }
    if (t instanceof HttpTimeoutException) {
      return "request timeout";
    }
    if (t instanceof ConnectException) {
      return ConnectFailures.reason(ConnectFailures.REFUSED, hostPort(base));
    }
    Optional<String> kind = ConnectFailures.kind(t);
    if (kind.isPresent()) {
      return ConnectFailures.reason(kind.get(), hostPort(base));
    }
    // any other transport failure (a reset, a closed stream) is the network's: say so, since the
    // exception's name alone would be read as the server's (io.fusillade.record.FailureClass)
    return "network: " + t.getClass().getSimpleName() + where;
  }
}
