package io.fusillade.gatling.logs;

import io.fusillade.gatling.Expression;
import io.fusillade.logs.LogSearches;

/**
 * A search as configured: the value a {@link LogsSearchBuilder} wraps. Each {@code with...} returns
 * a changed copy.
 *
 * @param body the query DSL body per request: from the session, or drawn from a template
 * @param index another index than the protocol's, or null
 * @param aggregation the aggregation whose buckets are checked, or null
 */
record LogsSearch(
    Expression<String> name,
    Expression<String> body,
    String index,
    String queryString,
    int minHits,
    String aggregation,
    int minBuckets) {

  /** No checks, the protocol's index, {@code request_cache=false&track_total_hits=false}. */
  static LogsSearch of(Expression<String> name, Expression<String> body) {
    return new LogsSearch(name, body, null, LogSearches.QUERY_STRING, 0, null, 0);
  }

  LogsSearch withIndex(String value) {
    return new LogsSearch(name, body, value, queryString, minHits, aggregation, minBuckets);
  }

  LogsSearch withQueryString(String value) {
    return new LogsSearch(name, body, index, value, minHits, aggregation, minBuckets);
  }

  LogsSearch withMinHits(int value) {
    return new LogsSearch(name, body, index, queryString, value, aggregation, minBuckets);
  }

  LogsSearch withMinBuckets(String aggregationName, int value) {
    return new LogsSearch(name, body, index, queryString, minHits, aggregationName, value);
  }
}
