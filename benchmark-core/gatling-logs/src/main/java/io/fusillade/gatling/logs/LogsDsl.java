package io.fusillade.gatling.logs;

import io.fusillade.gatling.RequestNames;
import io.fusillade.gatling.check.Check;
import io.fusillade.logs.SearchResult;
import io.gatling.javaapi.core.Session;
import java.util.Map;
import java.util.function.Function;

/**
 * The entry point of Fusillade's logs protocol (any Elasticsearch-compatible {@code _bulk} and
 * {@code _search} API: Elasticsearch, OpenSearch, seq-db), in the style of Gatling's {@code
 * HttpDsl}: {@code logs} configures the protocol, {@code logs("name")} starts a request.
 *
 * <pre>{@code
 * import static io.fusillade.gatling.logs.LogsDsl.*;
 *
 * LogsProtocolBuilder store = logs.urls("http://127.0.0.1:9200").index("web-logs").seed(42)
 *     .recreateIndex(IndexSpec.preset("web-logs", "web-logs")).timeToSearchable();
 * ScenarioBuilder ingest = scenario("ingest").exec(logs("bulk").bulk(5_000));
 * setUp(ingest.injectOpen(constantUsersPerSec(10).during(60))).protocols(store);
 * }</pre>
 */
public final class LogsDsl {
  /** The logs protocol with its defaults: index {@code logs}, web profile, seed 1, no gzip. */
  public static final LogsProtocolBuilder logs = new LogsProtocolBuilder(LogsSettings.DEFAULT);

  private LogsDsl() {}

  /**
   * Starts a logs request. {@code name} is the request's name in reports, a Gatling EL string or a
   * constant: keep it to a few distinct values.
   *
   * <p>Example: {@code logs("server errors").search("{\"query\":{\"term\":{\"status\":500}}}")}.
   */
  public static LogsRequest logs(String name) {
    return new LogsRequest(RequestNames.of("logs", name));
  }

  /**
   * A bulk that fails on purpose ({@link LogsFaults}): named {@code injected <kind>}, left out of
   * the run's error and latency checks unless a check names it. Its body is made for the index the
   * protocol creates ({@link LogsProtocolBuilder#recreateIndex}), when the scenario starts, or the
   * one given to {@link LogsInjectedBuilder#forIndex}.
   *
   * @param kind one of {@link LogsFaults#KINDS}, e.g. {@link LogsFaults#MAPPING_VIOLATION}
   * @return the request
   * @throws IllegalArgumentException for an unknown kind
   *     <p>Example: {@code exec(injected(LogsFaults.MAPPING_VIOLATION))}.
   */
  public static LogsInjectedBuilder injected(String kind) {
    return new LogsInjectedBuilder(kind, null);
  }

  /**
   * Starts a logs request whose name is computed from the session (keep the names few).
   *
   * <p>Example: {@code logs(session -> session.getString("kind") + " search")}.
   */
  public static LogsRequest logs(Function<Session, String> name) {
    return new LogsRequest(RequestNames.of("logs", name));
  }

  /**
   * Check: the documents the read returned (the length of {@code hits.hits}, of seq-db's {@code
   * docs}), an {@code Integer}.
   *
   * <p>Example: {@code logs("errors").search(body).check(hits().gte(1))}.
   */
  public static Check<SearchResult, Integer> hits() {
    return LogsChecks.hits();
  }

  /**
   * Check: the matching documents ({@code hits.total.value}; seq-db's {@code total}), a {@code
   * Long}; not found unless asked for ({@code track_total_hits=true}, {@code withTotal()}).
   *
   * <p>Example: {@code .queryString("track_total_hits=true").check(total().is(5000))}.
   */
  public static Check<SearchResult, Long> total() {
    return LogsChecks.total();
  }

  /**
   * Check: how many buckets an aggregation has, an {@code Integer}; {@code ""} is the answer's only
   * aggregation, whatever its name (seq-db names them {@code "0"}, {@code "1"}...).
   *
   * <p>Example: {@code .check(buckets("by_status").gte(2))}.
   */
  public static Check<SearchResult, Integer> buckets(String aggregation) {
    return LogsChecks.buckets(aggregation);
  }

  /**
   * Check: an aggregation's buckets, each key with its document count (as a {@code Double}); {@code
   * is(Map.of("200", 8, "404", 2))} wants exactly these, no bucket more or less.
   *
   * <p>Example: {@code .check(bucketCounts("").is(Map.of("200", 8)))}.
   */
  public static Check<SearchResult, Map<String, Double>> bucketCounts(String aggregation) {
    return LogsChecks.bucketValues(aggregation, true);
  }

  /**
   * Check: an aggregation's buckets, each key with its single metric (a {@code min} sub-aggregation
   * on Elasticsearch, the function's {@code value} on seq-db).
   *
   * <p>Example: {@code .check(bucketValues("").is(Map.of("200", 512.0)))}.
   */
  public static Check<SearchResult, Map<String, Double>> bucketValues(String aggregation) {
    return LogsChecks.bucketValues(aggregation, false);
  }

  /**
   * Check: a value of the answer's JSON found by a JSONPath (Gatling's implementation), its first
   * match: a {@code String}, a number, a {@code Boolean}, or an object's JSON text.
   *
   * <p>Example: {@code .check(jsonPath("$.hits.hits[0]._source.status").is(500))}.
   *
   * @throws IllegalArgumentException for a path that cannot be read, with the reason
   */
  public static Check<SearchResult, Object> jsonPath(String path) {
    return LogsChecks.jsonPath(path);
  }

  /**
   * Check: the value a JMESPath expression selects in the answer's JSON body (text, a number, a
   * boolean, or an object's or array's JSON text); not found when it selects nothing ({@code
   * null}). Gatling's own JMESPath implementation.
   *
   * <p>Example: {@code .check(jmesPath("hits.hits[0]._source.status").is(500))}, {@code
   * jmesPath("length(hits.hits)").gte(1)}.
   *
   * @throws IllegalArgumentException for an expression that cannot be read, with the reason
   */
  public static Check<SearchResult, Object> jmesPath(String expression) {
    return LogsChecks.jmesPath(expression);
  }

  /**
   * Check: the error the store answered with (seq-db's {@code error.code}, an HTTP error, a
   * connection failure); not found when it answered without one. A read with such a check is judged
   * by its checks alone, even when the store answered with an error.
   *
   * <p>Example: {@code .check(errorCode().is("ERROR_CODE_TOO_MANY_FRACTIONS_HIT"))}.
   */
  public static Check<SearchResult, String> errorCode() {
    return LogsChecks.errorCode();
  }
}
