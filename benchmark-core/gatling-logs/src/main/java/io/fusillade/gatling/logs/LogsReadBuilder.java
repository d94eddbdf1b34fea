package io.fusillade.gatling.logs;

import io.gatling.javaapi.core.ActionBuilder;
import java.util.Map;

/**
 * The checks every read takes, on either store, and the action it builds. Immutable: each check
 * returns a new builder. A read is OK when the store answered without error and every check holds;
 * the first that fails is the KO's reason.
 *
 * @param <B> the concrete builder
 */
public abstract class LogsReadBuilder<B extends LogsReadBuilder<B>> implements ActionBuilder {

  LogsReadBuilder() {}

  /** The read as configured, checks included. */
  abstract LogsSearch search();

  /** A builder like this one around {@code search}. */
  abstract B with(LogsSearch search);

  private B checks(SearchChecks checks) {
    return with(search().withChecks(checks));
  }

  /** KO unless the read returns at least {@code min} documents. */
  public B checkHits(int min) {
    return checks(search().checks().withMinHits(min));
  }

  /** KO unless the read returns exactly {@code count} documents (a full page, say). */
  public B checkHitsExactly(int count) {
    return checks(search().checks().withHits(count));
  }

  /**
   * KO unless exactly {@code expected} documents match (the answer's total: ask for it with {@code
   * track_total_hits=true} on Elasticsearch, {@code withTotal()} on seq-db).
   */
  public B checkTotal(long expected) {
    return checks(search().checks().withTotal(expected));
  }

  /** KO unless aggregation {@code name} has at least {@code min} buckets. */
  public B checkBuckets(String aggregationName, int min) {
    return checks(search().checks().withMinBuckets(aggregationName, min));
  }

  /**
   * KO unless aggregation {@code name} has exactly these buckets, each with this many documents
   * (seq-db names its aggregations by position: {@code "0"}, {@code "1"}..., unless {@link
   * io.fusillade.logs.SeqDbAggregation#named named}); {@code ""} stands for the answer's only
   * aggregation, whatever its name.
   */
  public B checkBucketCounts(String aggregationName, Map<String, ? extends Number> counts) {
    return checks(search().checks().withBuckets(aggregationName, true, counts));
  }

  /**
   * KO unless aggregation {@code name} has exactly these buckets, each with this value: its single
   * metric (a {@code min} sub-aggregation on Elasticsearch, the function's {@code value} on
   * seq-db).
   */
  public B checkBucketValues(String aggregationName, Map<String, ? extends Number> values) {
    return checks(search().checks().withBuckets(aggregationName, false, values));
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    LogsSearch s = search();
    return LogsProtocol.KEY.actionBuilder(
        (components, next) -> new SearchAction(s, components, next));
  }
}
