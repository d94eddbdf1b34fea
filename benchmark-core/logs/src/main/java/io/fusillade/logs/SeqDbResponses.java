package io.fusillade.logs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the answers of seq-db's search API into a {@link SearchResult}: the documents returned
 * ({@code docs}), the {@code total}, the buckets of each aggregation (by its {@link
 * SeqDbAggregation#name() name}, else {@code "0"}, {@code "1"}... in the order asked) and of the
 * histogram ({@link SeqDbQuery#HISTOGRAM}).
 *
 * <p>seq-db answers HTTP 200 with an {@code error.code} when a search went wrong on its side
 * ({@code ERROR_CODE_PARTIAL_RESPONSE}: a store did not answer; {@code
 * ERROR_CODE_TOO_MANY_FRACTIONS_HIT}: the window spans more of its data files than it may read).
 * Such an answer is a failed search whose reason is that code, never a success with fewer hits.
 */
final class SeqDbResponses {
  /** The code of an answer without error. */
  static final String NO_ERROR = "ERROR_CODE_NO";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private SeqDbResponses() {}

  /**
   * @param body the answer's body (HTTP 200)
   * @param query what was asked: the functions of its aggregations say what a bucket's value is
   * @param end when the answer was read, on {@link System#nanoTime()}
   */
  static SearchResult parse(byte[] body, SeqDbQuery query, long end) {
    JsonNode root;
    try {
      root = MAPPER.readTree(body);
    } catch (IOException e) {
      return new SearchResult(200, 0, -1, Map.of(), "unreadable seq-db response", end);
    }
    String code = root.path("error").path("code").asText("");
    if (!code.isEmpty() && !code.equals(NO_ERROR) && !code.equals("ERROR_CODE_UNSPECIFIED")) {
      return new SearchResult(200, 0, -1, Map.of(), code, end, root);
    }
    int hits = root.path("docs").size();
    JsonNode total = root.get("total");
    // int64 may come as a JSON string from the gRPC gateway
    long totalHits = total == null ? -1 : total.asLong(-1);
    Map<String, List<SearchResult.Bucket>> aggregations = new LinkedHashMap<>();
    JsonNode aggs = root.path("aggs");
    for (int i = 0; i < aggs.size(); i++) {
      SeqDbAggregation asked = i < query.aggregations().size() ? query.aggregations().get(i) : null;
      String name = asked != null && asked.name() != null ? asked.name() : Integer.toString(i);
      aggregations.put(name, buckets(aggs.get(i), asked == null ? null : asked.function()));
    }
    JsonNode hist = root.path("hist");
    if (hist.has("buckets")) {
      List<SearchResult.Bucket> buckets = new ArrayList<>();
      for (JsonNode bucket : hist.path("buckets")) {
        JsonNode ts = bucket.path("ts");
        String key = ts.isObject() ? ts.path("seconds").asText() : ts.asText();
        long count = count(bucket);
        buckets.add(new SearchResult.Bucket(key, count, Map.of()));
      }
      aggregations.put(SeqDbQuery.HISTOGRAM, buckets);
    }
    return new SearchResult(200, hits, totalHits, aggregations, null, end, root);
  }

  /**
   * The buckets of one aggregation. A {@code COUNT} bucket's value is its document count; any
   * other's is in {@code values} as {@code value} (and {@code q<quantile>} for quantiles).
   */
  private static List<SearchResult.Bucket> buckets(
      JsonNode aggregation, SeqDbAggregation.Function function) {
    List<SearchResult.Bucket> list = new ArrayList<>();
    for (JsonNode bucket : aggregation.path("buckets")) {
      Map<String, Double> values = new HashMap<>();
      JsonNode value = bucket.get("value");
      if (value != null && value.isNumber()) {
        values.put("value", value.asDouble());
      }
      JsonNode quantiles = bucket.path("quantiles");
      for (int q = 0; q < quantiles.size(); q++) {
        values.put("q" + q, quantiles.get(q).asDouble());
      }
      long docCount =
          function == SeqDbAggregation.Function.COUNT && value != null
              ? value.asLong()
              : count(bucket);
      list.add(new SearchResult.Bucket(bucket.path("key").asText(""), docCount, values));
    }
    return list;
  }

  private static long count(JsonNode bucket) {
    JsonNode n = bucket.has("doc_count") ? bucket.get("doc_count") : bucket.get("docCount");
    return n == null ? -1 : n.asLong(-1);
  }
}
