package io.fusillade.gatling.logs;

import io.gatling.javaapi.core.ActionBuilder;

/**
 * A search ready to run, with its checks. Immutable, in Gatling's style: it wraps one {@link
 * LogsSearch} and every method returns a new builder around a changed copy. By default it is sent
 * with {@code request_cache=false&track_total_hits=false}, as in the seq-db benchmark.
 */
public final class LogsSearchBuilder implements ActionBuilder {
  private final LogsSearch search;

  LogsSearchBuilder(LogsSearch search) {
    this.search = search;
  }

  /** What this builder holds (for tests). */
  LogsSearch search() {
    return search;
  }

  /** Another index (or pattern) than the protocol's. */
  public LogsSearchBuilder index(String value) {
    return new LogsSearchBuilder(search.withIndex(value));
  }

  /** The URL query string, without {@code ?} (replaces the default). */
  public LogsSearchBuilder queryString(String value) {
    return new LogsSearchBuilder(search.withQueryString(value));
  }

  /** KO unless the search returns at least {@code min} hits. */
  public LogsSearchBuilder checkHits(int min) {
    return new LogsSearchBuilder(search.withMinHits(min));
  }

  /** KO unless aggregation {@code name} has at least {@code min} buckets. */
  public LogsSearchBuilder checkBuckets(String aggregationName, int min) {
    return new LogsSearchBuilder(search.withMinBuckets(aggregationName, min));
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    LogsSearch s = search;
    return LogsProtocol.KEY.actionBuilder(
        (components, next) -> new SearchAction(s, components, next));
  }
}
