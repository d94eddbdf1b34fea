package io.fusillade.logs;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * What a {@code _search} request returned.
 *
 * @param httpStatus the HTTP status, or 0 when no response came
 * @param hits the number of hits returned (the length of {@code hits.hits})
 * @param totalHits {@code hits.total.value}, or -1 when the total was not tracked
 * @param aggregations the buckets of each bucket aggregation, by name
 * @param error for a failed request, a short stable reason, else null
 * @param endNanos when the response was read, on {@link System#nanoTime()}
 * @param body the response's JSON as parsed, for checks that read it ({@code jsonPath}), or null
 *     when no readable body came
 */
public record SearchResult(
    int httpStatus,
    int hits,
    long totalHits,
    Map<String, List<Bucket>> aggregations,
    String error,
    long endNanos,
    JsonNode body) {

  /** Copies the map. */
  public SearchResult {
    aggregations = Map.copyOf(aggregations);
  }

  /** A result without a readable body: a failure, or a test's fixture. */
  public SearchResult(
      int httpStatus,
      int hits,
      long totalHits,
      Map<String, List<Bucket>> aggregations,
      String error,
      long endNanos) {
    this(httpStatus, hits, totalHits, aggregations, error, endNanos, null);
  }

  /** Whether the search succeeded (whatever it found). */
  public boolean ok() {
    return error == null;
  }

  /** The buckets of an aggregation, or an empty list. */
  public List<Bucket> buckets(String aggregation) {
    return aggregations.getOrDefault(aggregation, List.of());
  }

  /**
   * One bucket.
   *
   * @param key the bucket key as text
   * @param docCount its {@code doc_count}
   * @param values single-value sub-aggregations ({@code min}, {@code avg}...) by name
   */
  public record Bucket(String key, long docCount, Map<String, Double> values) {
    /** Copies the map. */
    public Bucket {
      values = Map.copyOf(values);
    }
  }
}
