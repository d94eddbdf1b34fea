package io.fusillade.gatling.logs;

import io.fusillade.logs.SearchTemplate;
import io.gatling.core.action.Action;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.javaapi.core.ActionBuilder;

/**
 * A search ready to run, with its checks. Immutable. By default it is sent with {@code
 * request_cache=false&track_total_hits=false}, as in the seq-db benchmark.
 */
public final class LogsSearchBuilder implements ActionBuilder {
  private final String name;
  private final SearchTemplate template;
  private final String index;
  private final String queryString;
  private final int minHits;
  private final String aggregation;
  private final int minBuckets;

  LogsSearchBuilder(
      String name,
      SearchTemplate template,
      String index,
      String queryString,
      int minHits,
      String aggregation,
      int minBuckets) {
    this.name = name;
    this.template = template;
    this.index = index;
    this.queryString = queryString;
    this.minHits = minHits;
    this.aggregation = aggregation;
    this.minBuckets = minBuckets;
  }

  /** Another index (or pattern) than the protocol's. */
  public LogsSearchBuilder index(String value) {
    return new LogsSearchBuilder(
        name, template, value, queryString, minHits, aggregation, minBuckets);
  }

  /** The URL query string, without {@code ?} (replaces the default). */
  public LogsSearchBuilder queryString(String value) {
    return new LogsSearchBuilder(name, template, index, value, minHits, aggregation, minBuckets);
  }

  /** KO unless the search returns at least {@code min} hits. */
  public LogsSearchBuilder checkHits(int min) {
    return new LogsSearchBuilder(name, template, index, queryString, min, aggregation, minBuckets);
  }

  /** KO unless aggregation {@code name} has at least {@code min} buckets. */
  public LogsSearchBuilder checkBuckets(String aggregationName, int min) {
    return new LogsSearchBuilder(name, template, index, queryString, minHits, aggregationName, min);
  }

  SearchTemplate template() {
    return template;
  }

  String index() {
    return index;
  }

  String queryString() {
    return queryString;
  }

  int minHits() {
    return minHits;
  }

  String aggregation() {
    return aggregation;
  }

  int minBuckets() {
    return minBuckets;
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    return new io.gatling.core.action.builder.ActionBuilder() {
      @Override
      public Action build(ScenarioContext ctx, Action next) {
        LogsComponents components = ctx.protocolComponentsRegistry().components(LogsProtocol.KEY);
        return new SearchAction(name, LogsSearchBuilder.this, components, next);
      }
    };
  }
}
