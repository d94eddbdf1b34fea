package io.fusillade.gatling.logs;

import io.fusillade.gatling.Expression;
import io.gatling.javaapi.core.Session;
import java.util.function.Function;

/**
 * A search in Elasticsearch's query DSL ready to run, with its checks. Immutable, in Gatling's
 * style: it wraps one {@link LogsSearch} and every method returns a new builder around a changed
 * copy. By default it is sent with {@code request_cache=false&track_total_hits=false}, as in the
 * seq-db benchmark. A built-in scenario ({@link
 * LogsRequest#search(io.fusillade.logs.SearchScenario)}) also carries its seq-db form, sent when
 * the protocol's store is seq-db.
 */
public final class LogsSearchBuilder extends LogsReadBuilder<LogsSearchBuilder> {
  private final LogsSearch search;

  LogsSearchBuilder(LogsSearch search) {
    this.search = search;
  }

  /** What this builder holds (for tests). */
  @Override
  LogsSearch search() {
    return search;
  }

  @Override
  LogsSearchBuilder with(LogsSearch value) {
    return new LogsSearchBuilder(value);
  }

  /**
   * Another index (or pattern) than the protocol's: a Gatling EL template ({@code "logs-#{day}"}).
   *
   * <p>Example: {@code logs("all").search(body).index("web-logs-*")}.
   */
  public LogsSearchBuilder index(String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("index(...) needs an index name or pattern");
    }
    return new LogsSearchBuilder(search.withIndex(Expression.text(value)));
  }

  /**
   * Another index than the protocol's, computed from the session.
   *
   * <p>Example: {@code .index(session -> "logs-" + session.getString("day"))}.
   */
  public LogsSearchBuilder index(Function<Session, String> value) {
    return new LogsSearchBuilder(search.withIndex(Expression.of(value)));
  }

  /**
   * The URL query string, without {@code ?} (replaces the default).
   *
   * <p>Example: {@code logs("count").search(body).queryString("track_total_hits=true")}.
   */
  public LogsSearchBuilder queryString(String value) {
    return new LogsSearchBuilder(search.withQueryString(value));
  }
}
