package io.fusillade.gatling.logs;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.check.Check;
import io.fusillade.gatling.check.CheckIf;
import io.fusillade.logs.SearchResult;
import io.gatling.javaapi.core.ActionBuilder;
import java.util.List;
import java.util.function.Function;

/**
 * The checks every read takes, on either store, and the action it builds. Immutable: each check
 * returns a new builder. A read is OK when the store answered without error (unless a check reads
 * the error: {@link LogsDsl#errorCode()}) and every check holds; the first that fails is the KO's
 * reason.
 *
 * @param <B> the concrete builder
 */
public abstract class LogsReadBuilder<B extends LogsReadBuilder<B>> implements ActionBuilder {

  LogsReadBuilder() {}

  /** The read as configured, checks included. */
  abstract LogsSearch search();

  /** A builder like this one around {@code search}. */
  abstract B with(LogsSearch search);

  /**
   * Checks on the answer, in Gatling's idiom ({@link LogsDsl#hits()}, {@link LogsDsl#jsonPath},
   * {@link LogsDsl#total()}, {@link LogsDsl#buckets}, {@link LogsDsl#errorCode()}); the first that
   * fails makes the read KO with its message, and a check's {@code saveAs} keeps a value for the
   * next requests.
   *
   * <p>Example: {@code .check(hits().gte(1), jsonPath("$.hits.hits[0]._id").saveAs("firstId"))}.
   */
  @SafeVarargs
  public final B check(Check<SearchResult, ?>... checks) {
    return with(search().withChecks(List.of(checks)));
  }

  /**
   * Checks run only for the sessions where a Gatling EL string is {@code true}.
   *
   * <p>Example: {@code .checkIf("#{audit}").then(hits().gte(1))}.
   */
  public CheckIf<SearchResult, B> checkIf(String condition) {
    return new CheckIf<>(CheckIf.el(condition), checks -> with(search().withChecks(checks)));
  }

  /**
   * Checks run only for the sessions where {@code condition} holds.
   *
   * <p>Example: {@code .checkIf(session -> session.getBoolean("audit")).then(hits().gte(1))}.
   */
  public CheckIf<SearchResult, B> checkIf(
      Function<io.gatling.javaapi.core.Session, Boolean> condition) {
    return new CheckIf<>(Expression.of(condition), checks -> with(search().withChecks(checks)));
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    LogsSearch s = search();
    return LogsProtocol.KEY.actionBuilder(
        (components, next) -> new SearchAction(s, components, next));
  }
}
