package io.fusillade.gatling.logs;

import com.fasterxml.jackson.databind.JsonNode;
import io.burt.jmespath.JmesPath;
import io.burt.jmespath.JmesPathException;
import io.burt.jmespath.jackson.JacksonRuntime;
import io.fusillade.gatling.check.Check;
import io.fusillade.logs.SearchResult;
import io.gatling.jsonpath.JPError;
import io.gatling.jsonpath.JsonPath;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import scala.util.Either;

/**
 * The extractors of a read's answer, on either store ({@link LogsDsl#hits()}, {@link
 * LogsDsl#jsonPath}...). A read whose store answered with an error is KO with that error before any
 * check runs, unless a check reads the error itself ({@link LogsDsl#errorCode()}).
 */
final class LogsChecks {
  /**
   * What {@link LogsDsl#errorCode()} needs: the answer's error, which the other checks never see.
   */
  static final String ERROR = "error";

  /**
   * seq-db's bucket of the documents without the grouped field, which Elasticsearch's terms
   * aggregation leaves out: not one of the data set's values (Fusillade's own time-to-searchable
   * markers are such documents), so not a bucket of the answer.
   */
  static final String SEQ_DB_MISSING = "_not_exists";

  private LogsChecks() {}

  static Check<SearchResult, Integer> hits() {
    return Check.of("hits", Set.of(), r -> Optional.of(r.hits()));
  }

  static Check<SearchResult, Long> total() {
    return Check.of(
        "total", Set.of(), r -> r.totalHits() < 0 ? Optional.empty() : Optional.of(r.totalHits()));
  }

  static Check<SearchResult, Integer> buckets(String aggregation) {
    return Check.of(
        "buckets(" + aggregation + ")",
        Set.of(),
        r -> aggregationName(r, aggregation).map(name -> bucketsOf(r, name, true).size()));
  }

  static Check<SearchResult, Map<String, Double>> bucketValues(String aggregation, boolean counts) {
    return Check.of(
        (counts ? "bucketCounts(" : "bucketValues(") + aggregation + ")",
        Set.of(),
        r -> aggregationName(r, aggregation).map(name -> bucketsOf(r, name, counts)));
  }

  static Check<SearchResult, String> errorCode() {
    return Check.of("errorCode", Set.of(ERROR), r -> Optional.ofNullable(r.error()));
  }

  static Check<SearchResult, Object> jsonPath(String path) {
    Either<JPError, JsonPath> compiled = JsonPath.compile(path);
    if (compiled.isLeft()) {
      throw new IllegalArgumentException(
          "jsonPath(\"" + path + "\"): " + compiled.left().get().reason());
    }
    JsonPath jsonPath = compiled.toOption().get();
    return Check.of(
        "jsonPath(" + path + ")",
        Set.of(),
        r -> {
          if (r.body() == null) {
            return Optional.empty();
          }
          Iterator<JsonNode> found =
              scala.jdk.javaapi.CollectionConverters.asJava(jsonPath.query(r.body()));
          return found.hasNext() ? Optional.ofNullable(value(found.next())) : Optional.empty();
        });
  }

  /** Gatling's own JMESPath runtime (io.burt's, on Jackson): compiled expressions are immutable. */
  private static final JmesPath<JsonNode> JMES_PATH = new JacksonRuntime();

  static Check<SearchResult, Object> jmesPath(String expression) {
    io.burt.jmespath.Expression<JsonNode> compiled;
    try {
      compiled = JMES_PATH.compile(expression);
    } catch (JmesPathException e) {
      throw new IllegalArgumentException("jmesPath(\"" + expression + "\"): " + e.getMessage(), e);
    }
    return Check.of(
        "jmesPath(" + expression + ")",
        Set.of(),
        r ->
            r.body() == null
                ? Optional.empty()
                : Optional.ofNullable(value(compiled.search(r.body()))));
  }

  /** A JSON value as a check compares it: text, a number, a boolean, or an object's JSON text. */
  static Object value(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isTextual()) {
      return node.asText();
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToLong() ? node.asLong() : node.bigIntegerValue();
    }
    if (node.isNumber()) {
      return node.decimalValue();
    }
    if (node.isBoolean()) {
      return node.asBoolean();
    }
    return node.toString();
  }

  /** The aggregation's name in the answer: {@code ""} is the answer's only one, if it has one. */
  private static Optional<String> aggregationName(SearchResult r, String aggregation) {
    if (!aggregation.isEmpty()) {
      return r.aggregations().containsKey(aggregation)
          ? Optional.of(aggregation)
          : Optional.empty();
    }
    return r.aggregations().size() == 1
        ? Optional.of(r.aggregations().keySet().iterator().next())
        : Optional.empty();
  }

  private static Map<String, Double> bucketsOf(SearchResult r, String name, boolean counts) {
    Map<String, Double> got = new TreeMap<>();
    for (SearchResult.Bucket b : r.buckets(name)) {
      if (!b.key().equals(SEQ_DB_MISSING)) {
        got.put(b.key(), counts ? (double) b.docCount() : single(b));
      }
    }
    return got;
  }

  /** A bucket's one value: seq-db's {@code value}, or Elasticsearch's single sub-aggregation. */
  private static double single(SearchResult.Bucket b) {
    Double value = b.values().get("value");
    if (value != null) {
      return value;
    }
    return b.values().size() == 1 ? b.values().values().iterator().next() : Double.NaN;
  }
}
