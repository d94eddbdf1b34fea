package io.fusillade.logs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.FusilladeException;
import io.fusillade.health.ConnectFailures;
import io.fusillade.health.NodeWatch;
import io.fusillade.record.RunEvents;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A non-blocking client for the Elasticsearch-compatible API of a log store (Elasticsearch,
 * OpenSearch, seq-db): {@code _bulk} and {@code _search} return futures, plus blocking set-up calls
 * (create an index, refresh, count) for use before or after a run. For seq-db ({@link
 * LogStore#SEQ_DB}) bulks take the same code path to {@code /_bulk}, reads go to its own search API
 * ({@link #seqDb(SeqDbQuery)}), and the set-up calls use it or do nothing (no index API, no
 * refresh).
 *
 * <p>It is built on the JDK's {@link HttpClient}: non-blocking, HTTP/1.1 keep-alive, no extra
 * dependency (Gatling's own HTTP client is Scala-internal API). Requests go to the configured nodes
 * in turn. Responses are handled on the client's own daemon threads, never on the caller's.
 * Credentials are sent as a header and never appear in a message or log.
 *
 * <p>A node whose connection is refused or not accepted within {@link #CONNECT_TIMEOUT} is marked
 * down at once ({@link NodeWatch}), and so is one whose connection was reset when a new connection
 * fails too (a live node may close an idle keep-alive connection): until a background probe ({@code
 * GET /} answered with any status, after 100 ms, then doubling up to 2 s) finds it back, {@code
 * _bulk} and {@code _search} go to the other nodes, and, when every node is down, fail at once with
 * the reason of the refusal ({@code "connection refused: 127.0.0.1:9200"}) instead of waiting for a
 * connect timeout. A request refused by a node (nothing was sent) is sent again to a live node; one
 * whose connection was reset is not (the node may have stored it). Node down/up are {@link
 * RunEvents}, in the run record when the client belongs to a run. Nodes are named {@code
 * host:port}, never with credentials.
 *
 * <p>Why one class of about 700 lines: every call, on the hot path ({@code _bulk}, {@code _search},
 * seq-db's search) or in set-up (index, refresh, count, identity), goes through the same choice of
 * node, the same down-marking and probing, and the same credentials, which are this class's state;
 * what reads an answer or names a failure, pure functions, is {@link LogsResponses} and {@link
 * SeqDbResponses}.
 */
public final class LogsClient implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LogsClient.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final LogsClientOptions options;
  private final ExecutorService executor;
  private final HttpClient http;
  private final String authorization;
  private final AtomicInteger next = new AtomicInteger();
  private final NodeWatch nodes;

  /**
   * How long opening a connection may take before the node counts as down. A node that does not
   * accept within this is unusable for a load test; 10 s (the JDK's usual choice) would hold every
   * request sent meanwhile.
   */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);

  /** How long the probe of a down node waits for {@code GET /} to answer. */
  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

  private static final int PROBE_TIMEOUT_MS = (int) PROBE_TIMEOUT.toMillis();

  private LogsClient(LogsClientOptions options, RunEvents events) {
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
            .connectTimeout(CONNECT_TIMEOUT)
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
    List<String> names = options.urls().stream().map(LogsResponses::hostPort).toList();
    this.nodes = new NodeWatch(names, this::probe, events, NodeWatch.Backoff.DEFAULT);
  }

  /**
   * A client outside a run: node down/up events are dropped.
   *
   * @param options the store
   * @return the client; close it
   */
  public static LogsClient open(LogsClientOptions options) {
    return new LogsClient(options, RunEvents.NONE);
  }

  /**
   * A client whose node down/up events go to {@code events} (the run's recorder).
   *
   * @param options the store
   * @param events where node down/up go
   * @return the client; close it
   */
  public static LogsClient open(LogsClientOptions options, RunEvents events) {
    return new LogsClient(options, events);
  }

  /** Which nodes are up: read-only use, e.g. by a test or a report of the client's state. */
  public NodeWatch nodes() {
    return nodes;
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
    return bulk(index, body, gzipped, documents, nodes.size());
  }

  /** {@code tries}: how many nodes a refused bulk may still be sent to. */
  private CompletableFuture<BulkResult> bulk(
      String index, JsonBuffer body, boolean gzipped, int documents, int tries) {
    int node = nextNode();
    if (nodes.isDown(node)) {
      // every node is down: fail now with the reason, rather than after a connect timeout
      String reason = nodes.reason(node);
      return CompletableFuture.completedFuture(
          new BulkResult(
              0, documents, documents, 0, Map.of(reason, documents), reason, System.nanoTime()));
    }
    String base = options.urls().get(node);
    HttpRequest.Builder request =
        request(base + bulkPath(index))
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
                String reason = fail(node, failure, base);
                if (tries > 1 && LogsResponses.refused(failure)) {
                  return null; // nothing reached the node: send it to a live one
                }
                return new BulkResult(
                    0, documents, documents, 0, Map.of(reason, documents), reason, end);
              }
              int status = response.statusCode();
              byte[] bytes = response.body();
              if (status / 100 == 2) {
                return BulkResponses.parse(bytes, bytes.length, documents, end);
              }
              String reason = LogsResponses.httpError(status, bytes);
              boolean rejected = status == 429;
              return new BulkResult(
                  status,
                  documents,
                  documents,
                  rejected ? documents : 0,
                  Map.of(reason, documents),
                  reason,
                  end);
            })
        .thenCompose(
            result ->
                result != null
                    ? CompletableFuture.completedFuture(result)
                    : bulk(index, body, gzipped, documents, tries - 1));
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
    return search(index, body, query, nodes.size());
  }

  private CompletableFuture<SearchResult> search(
      String index, String body, String query, int tries) {
    int node = nextNode();
    if (nodes.isDown(node)) {
      return CompletableFuture.completedFuture(
          new SearchResult(0, 0, -1, Map.of(), nodes.reason(node), System.nanoTime()));
    }
    String base = options.urls().get(node);
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
                String reason = fail(node, failure, base);
                // a search changes nothing: any connection failure may be tried on a live node
                if (tries > 1 && LogsResponses.connectFailure(failure).isPresent()) {
                  return null;
                }
                return new SearchResult(0, 0, -1, Map.of(), reason, end);
              }
              if (response.statusCode() / 100 != 2) {
                return new SearchResult(
                    response.statusCode(),
                    0,
                    -1,
                    Map.of(),
                    LogsResponses.httpError(response.statusCode(), response.body()),
                    end);
              }
              return LogsResponses.parseSearch(response.body(), end);
            })
        .thenCompose(
            result ->
                result != null
                    ? CompletableFuture.completedFuture(result)
                    : search(index, body, query, tries - 1));
  }

  /**
   * Where a bulk goes: {@code /<index>/_bulk}, or {@code /_bulk} on seq-db (which answers anything
   * else with 404, and ignores the index of the action lines).
   */
  private String bulkPath(String index) {
    return options.store() == LogStore.SEQ_DB ? "/_bulk" : "/" + index + "/_bulk";
  }

  /**
   * Sends a read to seq-db's own search API ({@link SeqDbQuery#endpoint()}), in seq-ql. An answer
   * that carries an {@code error.code} (HTTP 200 all the same) is a failed search whose reason is
   * that code.
   *
   * @param query what to ask
   * @return the outcome; it never completes exceptionally
   */
  public CompletableFuture<SearchResult> seqDb(SeqDbQuery query) {
    return seqDb(query, query.body(), nodes.size());
  }

  private CompletableFuture<SearchResult> seqDb(SeqDbQuery query, String body, int tries) {
    int node = nextNode();
    if (nodes.isDown(node)) {
      return CompletableFuture.completedFuture(
          new SearchResult(0, 0, -1, Map.of(), nodes.reason(node), System.nanoTime()));
    }
    String base = options.urls().get(node);
    HttpRequest request =
        request(base + query.endpoint())
            .header("Content-Type", "application/json")
            .header(SEQ_QL_HEADER, "true")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
        .handle(
            (response, failure) -> {
              long end = System.nanoTime();
              if (failure != null) {
                String reason = fail(node, failure, base);
                if (tries > 1 && LogsResponses.connectFailure(failure).isPresent()) {
                  return null;
                }
                return new SearchResult(0, 0, -1, Map.of(), reason, end);
              }
              if (response.statusCode() / 100 != 2) {
                return new SearchResult(
                    response.statusCode(),
                    0,
                    -1,
                    Map.of(),
                    LogsResponses.httpError(response.statusCode(), response.body()),
                    end);
              }
              return SeqDbResponses.parse(response.body(), query, end);
            })
        .thenCompose(
            result ->
                result != null
                    ? CompletableFuture.completedFuture(result)
                    : seqDb(query, body, tries - 1));
  }

  /** The header that makes seq-db read a query as seq-ql rather than its older language. */
  static final String SEQ_QL_HEADER = "Grpc-Metadata-use-seq-ql";

  // ------------------------------------------------------------------ set-up (blocking)

  /**
   * Creates an index, or, with {@code recreate}, deletes it first. An index that already exists is
   * left as it is when {@code recreate} is false.
   *
   * @throws FusilladeException naming the endpoint and the server's reason when it fails
   */
  public void createIndex(IndexSpec spec, boolean recreate) {
    if (options.store() == LogStore.SEQ_DB) {
      // seq-db has no index API: its mapping is the file it was started with
      // (SeqDbMappings.yaml(spec) writes it for the embedded one)
      LOG.debug("seq-db has no index to create: index {} is its mapping file", spec.name());
      return;
    }
    String base = options.urls().get(0);
    if (recreate) {
      HttpResponse<String> deleted = call(request(base + "/" + spec.name()).DELETE(), base);
      if (deleted.statusCode() != 200 && deleted.statusCode() != 404) {
        throw LogsResponses.failure("delete index " + spec.name(), base, deleted);
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
      throw LogsResponses.failure("create index " + spec.name(), base, created);
    }
    awaitCopies(spec, base);
  }

  /**
   * Waits (up to a minute) until every copy of a new index that the cluster can place has started:
   * green, or yellow when it has no more data nodes than replicas. A load, or a fault, then begins
   * on a settled index, not on replicas still copying their primaries (a node killed then takes the
   * only started copy of a shard with it, and the bulks for that shard wait out their timeout). A
   * cluster that does not settle in time gets a warning, and the run goes on.
   */
  private void awaitCopies(IndexSpec spec, String base) {
    if (spec.replicas() == 0) {
      return;
    }
    try {
      HttpResponse<String> cluster = call(request(base + "/_cluster/health").GET(), base);
      int dataNodes =
          cluster.statusCode() == 200
              ? MAPPER.readTree(cluster.body()).path("number_of_data_nodes").asInt(1)
              : 1;
      String status = dataNodes > spec.replicas() ? "green" : "yellow";
      HttpResponse<String> health =
          call(
              request(
                      base
                          + "/_cluster/health/"
                          + spec.name()
                          + "?wait_for_status="
                          + status
                          + "&timeout=60s")
                  .timeout(Duration.ofSeconds(70))
                  .GET(),
              base);
      if (health.statusCode() != 200 || health.body().contains("\"timed_out\":true")) {
        LOG.warn(
            "index {} at {} is not {} after 60 s: the load begins while its replicas start",
            spec.name(),
            LogsClientOptions.mask(base),
            status);
      }
    } catch (java.io.IOException | RuntimeException e) {
      LOG.warn(
          "could not ask {} for the health of index {}: {}",
          LogsClientOptions.mask(base),
          spec.name(),
          e.getMessage());
    }
  }

  /**
   * What store this is, for {@code run.json}'s {@code logs.server}: its product ({@code
   * opensearch}, {@code elasticsearch}, or what {@code GET /} names), version, node count, and the
   * index's settings (shards, replicas, refresh interval, codec...; not its uuid, creation date or
   * name). Best effort: what cannot be read is left out.
   *
   * @param index the run's index, or null
   */
  public Map<String, Object> identity(String index) {
    String base = options.urls().get(0);
    Map<String, Object> out = new java.util.TreeMap<>();
    if (options.store() == LogStore.SEQ_DB) {
      return seqDbIdentity(base, out);
    }
    try {
      HttpResponse<String> root = call(request(base + "/").GET(), base);
      if (root.statusCode() == 200) {
        JsonNode version = MAPPER.readTree(root.body()).path("version");
        out.put(
            "product",
            version
                .path("distribution")
                .asText(
                    root.body().contains("You Know, for Search") ? "elasticsearch" : "unknown"));
        out.put("version", version.path("number").asText(""));
      }
      HttpResponse<String> health = call(request(base + "/_cluster/health").GET(), base);
      if (health.statusCode() == 200) {
        out.put("nodes", MAPPER.readTree(health.body()).path("number_of_nodes").asInt());
      }
      if (index != null) {
        HttpResponse<String> settings =
            call(request(base + "/" + index + "/_settings?flat_settings=true").GET(), base);
        if (settings.statusCode() == 200) {
          Map<String, Object> flat = new java.util.TreeMap<>();
          MAPPER
              .readTree(settings.body())
              .path(index)
              .path("settings")
              .fields()
              .forEachRemaining(
                  e -> {
                    String key = e.getKey();
                    if (!key.matches("index\\.(uuid|creation_date|provided_name|version\\..*)")) {
                      flat.put(key, e.getValue().asText());
                    }
                  });
          out.put("index", Map.of("name", index, "settings", flat));
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not read what store {} is: {}", base, e.toString());
    }
    return out;
  }

  /**
   * seq-db's identity: {@code product: seq-db}, its stores ({@code GET /status}) and the fields its
   * mapping indexes with their types ({@code GET /mappings}).
   */
  private Map<String, Object> seqDbIdentity(String base, Map<String, Object> out) {
    out.put("product", "seq-db");
    try {
      HttpResponse<String> status = call(request(base + "/status").GET(), base);
      if (status.statusCode() == 200) {
        out.put("nodes", MAPPER.readTree(status.body()).path("number_of_stores").asInt());
      }
      Map<String, String> mapping = seqDbMapping();
      if (!mapping.isEmpty()) {
        out.put("mapping", mapping);
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not read what store {} is: {}", base, e.toString());
    }
    return out;
  }

  /**
   * The fields seq-db indexes and their types, from {@code GET /mappings} (base64 of a JSON
   * object); empty when it indexes every field ({@code --mapping auto}) or does not say.
   *
   * @throws FusilladeException when the store cannot be reached
   */
  public Map<String, String> seqDbMapping() {
    String base = options.urls().get(0);
    HttpResponse<String> answer = call(request(base + "/mappings").GET(), base);
    Map<String, String> fields = new java.util.TreeMap<>();
    if (answer.statusCode() != 200) {
      return fields;
    }
    try {
      String data = MAPPER.readTree(answer.body()).path("data").asText("");
      if (!data.isEmpty()) {
        MAPPER
            .readTree(Base64.getDecoder().decode(data))
            .fields()
            .forEachRemaining(e -> fields.put(e.getKey(), e.getValue().asText()));
      }
    } catch (IOException | IllegalArgumentException e) {
      LOG.debug("unreadable seq-db mapping at {}: {}", LogsClientOptions.mask(base), e.toString());
    }
    return fields;
  }

  /**
   * Makes everything written so far searchable ({@code POST /<index>/_refresh}). seq-db has no
   * refresh: what it acknowledged is searchable, and this does nothing.
   */
  public void refresh(String index) {
    if (options.store() == LogStore.SEQ_DB) {
      return;
    }
    String base = options.urls().get(0);
    HttpResponse<String> r =
        call(
            request(base + "/" + index + "/_refresh").POST(HttpRequest.BodyPublishers.noBody()),
            base);
    if (r.statusCode() / 100 != 2) {
      throw LogsResponses.failure("refresh " + index, base, r);
    }
  }

  /**
   * The first node's clock, milliseconds since the epoch: the {@code timestamp} of its own node
   * statistics ({@code GET /_nodes/_local/stats/jvm}), which OpenSearch and Elasticsearch stamp
   * with the node's clock when they answer. The clock the injectors of one test share.
   *
   * @throws FusilladeException when the node does not say (a store without the nodes API)
   */
  public long nodeTimeMillis() {
    String base = options.urls().get(0);
    if (options.store() == LogStore.SEQ_DB) {
      throw new FusilladeException(LogsClientOptions.mask(base) + ": seq-db does not say its time");
    }
    HttpResponse<String> r =
        call(request(base + "/_nodes/_local/stats/jvm?filter_path=nodes.*.timestamp").GET(), base);
    if (r.statusCode() != 200) {
      throw LogsResponses.failure("node stats", base, r);
    }
    try {
      for (JsonNode node : MAPPER.readTree(r.body()).path("nodes")) {
        long timestamp = node.path("timestamp").asLong(-1);
        if (timestamp > 0) {
          return timestamp;
        }
      }
    } catch (IOException e) {
      // below
    }
    throw new FusilladeException(
        LogsClientOptions.mask(base) + ": no node timestamp in its _nodes stats");
  }

  /** The number of searchable documents ({@code GET /<index>/_count}). */
  public long count(String index) {
    if (options.store() == LogStore.SEQ_DB) {
      return seqDbOrThrow(SeqDbQuery.of("*").withSize(0).withTotal(true)).totalHits();
    }
    String base = options.urls().get(0);
    HttpResponse<String> r = call(request(base + "/" + index + "/_count").GET(), base);
    if (r.statusCode() != 200) {
      throw LogsResponses.failure("count " + index, base, r);
    }
    try {
      return MAPPER.readTree(r.body()).path("count").asLong(-1);
    } catch (IOException e) {
      throw new FusilladeException(base + ": unreadable _count response");
    }
  }

  /** Document counts per value of {@code field}, by a terms aggregation over the whole index. */
  public Map<String, Long> termCounts(String index, String field) {
    if (options.store() == LogStore.SEQ_DB) {
      SearchResult result =
          seqDbOrThrow(
              SeqDbQuery.of("*")
                  .withSize(0)
                  .withAggregations(List.of(SeqDbAggregation.count().groupBy(field))));
      Map<String, Long> counts = new LinkedHashMap<>();
      result.buckets("0").forEach(b -> counts.put(b.key(), b.docCount()));
      return counts;
    }
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

  private SearchResult seqDbOrThrow(SeqDbQuery query) {
    SearchResult result = seqDb(query).join();
    if (!result.ok()) {
      throw new FusilladeException(
          LogsClientOptions.mask(options.urls().get(0)) + ": " + result.error());
    }
    return result;
  }

  // ------------------------------------------------------------------ plumbing

  /**
   * The next live node in turn, or, when every node is down, the next node in turn (which the
   * caller fails with at once).
   */
  private int nextNode() {
    int size = nodes.size();
    int first = Math.floorMod(next.getAndIncrement(), size);
    for (int i = 0; i < size; i++) {
      int node = (first + i) % size;
      if (!nodes.isDown(node)) {
        return node;
      }
    }
    return first;
  }

  /**
   * The reason a request to {@code node} failed with; a connection failure marks the node down
   * ("connection refused: 127.0.0.1:9200").
   */
  private String fail(int node, Throwable failure, String base) {
    Optional<String> kind = LogsResponses.connectFailure(failure);
    if (kind.isEmpty()) {
      return LogsResponses.describe(failure, base);
    }
    String name = nodes.node(node);
    String reason = ConnectFailures.reason(kind.get(), name);
    if (kind.get().equals(ConnectFailures.RESET)) {
      // A reset may be one closed keep-alive connection of a live node, or a node that died with
      // requests in flight: a new connection tells which, and names the node's state honestly
      // ("connection refused") for the requests that will fail while it is down.
      try {
        NodeWatch.connect(name, PROBE_TIMEOUT_MS);
        return reason;
      } catch (IOException | RuntimeException down) {
        nodes.markDown(
            node,
            ConnectFailures.reason(
                ConnectFailures.kind(down).orElse(ConnectFailures.REFUSED), name));
        return reason;
      }
    }
    nodes.markDown(node, reason);
    return reason;
  }

  /** The probe of a down node: any HTTP answer to {@code GET /} (even 401) means it is back. */
  private void probe(int node) throws IOException, InterruptedException {
    String base = options.urls().get(node);
    http.send(
        request(base + "/").timeout(PROBE_TIMEOUT).GET().build(),
        HttpResponse.BodyHandlers.discarding());
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
      throw new FusilladeException(
          LogsClientOptions.mask(base) + ": " + LogsResponses.describe(e, base));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FusilladeException(LogsClientOptions.mask(base) + ": interrupted");
    }
  }

  /** Stops the client's threads. Requests still in flight complete as failures or are dropped. */
  @Override
  public void close() {
    nodes.close();
    executor.shutdownNow();
  }

  @Override
  public String toString() {
    return "LogsClient[" + options + "]";
  }
}
