package io.fusillade.logs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.FusilladeException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A non-blocking client for the Elasticsearch-compatible API of a log store (Elasticsearch,
 * OpenSearch, seq-db): {@code _bulk} and {@code _search} return futures, plus blocking set-up calls
 * (create an index, refresh, count) for use before or after a run.
 *
 * <p>It is built on the JDK's {@link HttpClient}: non-blocking, HTTP/1.1 keep-alive, no extra
 * dependency (Gatling's own HTTP client is Scala-internal API). Requests go to the configured nodes
 * in turn. Responses are handled on the client's own daemon threads, never on the caller's.
 * Credentials are sent as a header and never appear in a message or log.
 */
public final class LogsClient implements AutoCloseable {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final LogsClientOptions options;
  private final ExecutorService executor;
  private final HttpClient http;
  private final String authorization;
  private final AtomicInteger next = new AtomicInteger();

  private LogsClient(LogsClientOptions options) {
    this.options = options;
    this.executor =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "fusillade-logs-http-" + THREADS.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .executor(executor)
            .build();
    if (options.apiKey() != null) {
      this.authorization = "ApiKey " + options.apiKey();
    } else if (options.user() != null) {
      String pair = options.user() + ":" + (options.password() == null ? "" : options.password());
      this.authorization =
          "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    } else {
      this.authorization = null;
    }
  }

  public static LogsClient open(LogsClientOptions options) {
    return new LogsClient(options);
  }

  public LogsClientOptions options() {
    return options;
  }

  // ------------------------------------------------------------------ the load

  /**
   * Sends a {@code _bulk} body. The body's bytes must not change until the future completes.
   *
   * @param index the target index ({@code POST /<index>/_bulk})
   * @param body the NDJSON body, or its gzip when {@code gzipped}
   * @param gzipped whether the body is gzipped ({@code Content-Encoding: gzip})
   * @param documents the number of documents in it
   * @return the outcome; it never completes exceptionally
   */
  public CompletableFuture<BulkResult> bulk(
      String index, JsonBuffer body, boolean gzipped, int documents) {
    String base = nextUrl();
    HttpRequest.Builder request =
        request(base + "/" + index + "/_bulk")
            .header("Content-Type", "application/x-ndjson")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body.array(), 0, body.length()));
    if (gzipped) {
      request.header("Content-Encoding", "gzip");
    }
    return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray())
        .handle(
            (response, failure) -> {
              long end = System.nanoTime();
              if (failure != null) {
                String reason = describe(failure, base);
                return new BulkResult(
                    0, documents, documents, 0, Map.of(reason, documents), reason, end);
              }
              int status = response.statusCode();
              byte[] bytes = response.body();
              if (status / 100 == 2) {
                return BulkResponses.parse(bytes, bytes.length, documents, end);
              }
              String reason = httpError(status, bytes);
              boolean rejected = status == 429;
              return new BulkResult(
                  status,
                  documents,
                  documents,
                  rejected ? documents : 0,
                  Map.of(reason, documents),
                  reason,
                  end);
            });
  }

  /**
   * Sends a search.
   *
   * @param index the index (or pattern)
   * @param body the query DSL body
   * @param query the URL query string without {@code ?} ({@code request_cache=false}), or empty
   * @return the outcome; it never completes exceptionally
   */
  public CompletableFuture<SearchResult> search(String index, String body, String query) {
    String base = nextUrl();
    String url = base + "/" + index + "/_search" + (query.isEmpty() ? "" : "?" + query);
    HttpRequest request =
        request(url)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
        .handle(
            (response, failure) -> {
              long end = System.nanoTime();
              if (failure != null) {
                return new SearchResult(0, 0, -1, Map.of(), describe(failure, base), end);
              }
              if (response.statusCode() / 100 != 2) {
                return new SearchResult(
                    response.statusCode(),
                    0,
                    -1,
                    Map.of(),
                    httpError(response.statusCode(), response.body()),
                    end);
              }
              return parseSearch(response.body(), end);
            });
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
    return new SearchResult(200, count, totalHits, aggregations, null, end);
  }

  private static List<SearchResult.Bucket> buckets(JsonNode aggregation) {
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

  // ------------------------------------------------------------------ set-up (blocking)

  /**
   * Creates an index, or, with {@code recreate}, deletes it first. An index that already exists is
   * left as it is when {@code recreate} is false.
   *
   * @throws FusilladeException naming the endpoint and the server's reason when it fails
   */
  public void createIndex(IndexSpec spec, boolean recreate) {
    String base = options.urls().get(0);
    if (recreate) {
      HttpResponse<String> deleted = call(request(base + "/" + spec.name()).DELETE(), base);
      if (deleted.statusCode() != 200 && deleted.statusCode() != 404) {
        throw failure("delete index " + spec.name(), base, deleted);
      }
    }
    HttpResponse<String> created =
        call(
            request(base + "/" + spec.name())
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(spec.body())),
            base);
    if (created.statusCode() == 400
        && created.body().contains("resource_already_exists_exception")
        && !recreate) {
      return;
    }
    if (created.statusCode() / 100 != 2) {
      throw failure("create index " + spec.name(), base, created);
    }
  }

  /** Makes everything written so far searchable ({@code POST /<index>/_refresh}). */
  public void refresh(String index) {
    String base = options.urls().get(0);
    HttpResponse<String> r =
        call(
            request(base + "/" + index + "/_refresh").POST(HttpRequest.BodyPublishers.noBody()),
            base);
    if (r.statusCode() / 100 != 2) {
      throw failure("refresh " + index, base, r);
    }
  }

  /** The number of searchable documents ({@code GET /<index>/_count}). */
  public long count(String index) {
    String base = options.urls().get(0);
    HttpResponse<String> r = call(request(base + "/" + index + "/_count").GET(), base);
    if (r.statusCode() != 200) {
      throw failure("count " + index, base, r);
    }
    try {
      return MAPPER.readTree(r.body()).path("count").asLong(-1);
    } catch (IOException e) {
      throw new FusilladeException(base + ": unreadable _count response");
    }
  }

  /** Document counts per value of {@code field}, by a terms aggregation over the whole index. */
  public Map<String, Long> termCounts(String index, String field) {
    String body =
        "{\"size\":0,\"track_total_hits\":false,\"aggs\":{\"t\":{\"terms\":{\"field\":"
            + new String(JsonBuffer.quoted(field), StandardCharsets.UTF_8)
            + ",\"size\":1000}}}}";
    SearchResult result = search(index, body, "request_cache=false").join();
    if (!result.ok()) {
      throw new FusilladeException(options.urls().get(0) + ": " + result.error());
    }
    Map<String, Long> counts = new LinkedHashMap<>();
    result.buckets("t").forEach(b -> counts.put(b.key(), b.docCount()));
    return counts;
  }

  // ------------------------------------------------------------------ plumbing

  private String nextUrl() {
    List<String> urls = options.urls();
    return urls.get(Math.floorMod(next.getAndIncrement(), urls.size()));
  }

  private HttpRequest.Builder request(String url) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url)).timeout(options.requestTimeout());
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return b;
  }

  private HttpResponse<String> call(HttpRequest.Builder request, String base) {
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new FusilladeException(LogsClientOptions.mask(base) + ": " + describe(e, base));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FusilladeException(LogsClientOptions.mask(base) + ": interrupted");
    }
  }

  private static FusilladeException failure(String what, String base, HttpResponse<String> r) {
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
      JsonNode error = MAPPER.readTree(body).path("error");
      type = error.isTextual() ? null : error.path("type").asText(null);
    } catch (IOException | RuntimeException e) {
      // not JSON: the status alone
    }
    return "HTTP " + status + (type == null ? "" : " " + type);
  }

  /**
   * A short, stable reason for a transport failure, which reports class as the network's ({@link
   * io.fusillade.record.FailureClass}): "connection refused (URL)", "connect timeout (URL)",
   * "request timeout", else "network: IOException (URL)".
   */
  static String describe(Throwable failure, String base) {
    Throwable t = failure;
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    String where = " (" + LogsClientOptions.mask(base) + ")";
    if (t instanceof HttpConnectTimeoutException) {
      return "connect timeout" + where;
    }
    if (t instanceof HttpTimeoutException) {
      return "request timeout";
    }
    if (t instanceof ConnectException) {
      return "connection refused" + where;
    }
    // any other transport failure (a reset, a closed stream) is the network's: say so, since the
    // exception's name alone would be read as the server's (io.fusillade.record.FailureClass)
    return "network: " + t.getClass().getSimpleName() + where;
  }

  /** Stops the client's threads. Requests still in flight complete as failures or are dropped. */
  @Override
  public void close() {
    executor.shutdownNow();
  }

  @Override
  public String toString() {
    return "LogsClient[" + options + "]";
  }
}
