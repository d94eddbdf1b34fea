package io.fusillade.gatling.logs;

import io.fusillade.gatling.Expression;
import io.fusillade.logs.SeqDbAggregation;
import io.fusillade.logs.SeqDbQuery;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A read in seq-db's own terms: a seq-ql query, with a page of documents, aggregations or a
 * histogram ({@link SeqDbQuery} says which endpoint each goes to), and its checks. Every string is
 * a Gatling EL template, resolved per virtual user. Immutable: each method returns a new builder.
 *
 * <pre>{@code
 * logs("errors").seqql("status:in(500, 400, 403)").size(100).offset("#{offset}").check(hits().gte(1))
 * logs("min size by status").seqql("*").aggregate(SeqDbAggregation.min("size").groupBy("status"))
 * logs("per minute").seqql("status:500").histogram("1m")
 * }</pre>
 *
 * <p>Without {@link #size}, a read of documents returns 100, and a read of aggregations or a
 * histogram returns none. Sent with {@code Grpc-Metadata-use-seq-ql: true}; the window is wide
 * enough for any document unless {@link #from}/{@link #to} say otherwise. A store that answers with
 * an {@code error.code} fails the read with that code as its reason.
 */
public final class LogsSeqQlBuilder extends LogsReadBuilder<LogsSeqQlBuilder> {
  /**
   * The parts of the read, each from the session.
   *
   * @param size null for the default
   */
  record Parts(
      Expression<String> query,
      Expression<String> from,
      Expression<String> to,
      Expression<Object> size,
      Expression<Object> offset,
      boolean withTotal,
      boolean ascending,
      List<SeqDbAggregation> aggregations,
      Expression<String> histogram) {

    Parts {
      aggregations = List.copyOf(aggregations);
    }

    static Parts of(String query) {
      return new Parts(
          Expression.text(query),
          Expression.constant(SeqDbQuery.DEFAULT_FROM),
          Expression.constant(SeqDbQuery.DEFAULT_TO),
          null,
          Expression.<Object>constant(0L),
          false,
          false,
          List.of(),
          null);
    }

    /** The read for one session. */
    SeqDbQuery resolve(io.gatling.core.session.Session session) {
      boolean docsByDefault = aggregations.isEmpty() && histogram == null;
      int pageSize =
          size == null ? (docsByDefault ? 100 : 0) : (int) number(size.resolve(session), "size");
      return new SeqDbQuery(
          query.resolve(session),
          from.resolve(session),
          to.resolve(session),
          pageSize,
          number(offset.resolve(session), "offset"),
          withTotal,
          ascending,
          aggregations,
          histogram == null ? null : histogram.resolve(session));
    }

    boolean constant() {
      return query.isConstant()
          && from.isConstant()
          && to.isConstant()
          && (size == null || size.isConstant())
          && offset.isConstant()
          && (histogram == null || histogram.isConstant());
    }

    Expression<SeqDbQuery> expression() {
      if (constant()) {
        return Expression.constant(resolve(null)).describedAs(query.toString());
      }
      return Expression.<SeqDbQuery>of(session -> resolve(session.asScala()))
          .describedAs(query.toString());
    }

    private static long number(Object value, String what) {
      if (value instanceof Number n) {
        return n.longValue();
      }
      try {
        return Long.parseLong(String.valueOf(value).strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(what + " is not a whole number: " + value);
      }
    }
  }

  private final Parts parts;
  private final LogsSearch search;

  LogsSeqQlBuilder(Expression<String> name, String query) {
    this(Parts.of(query), null, name);
  }

  private LogsSeqQlBuilder(Parts parts, LogsSearch search, Expression<String> name) {
    this.parts = parts;
    this.search =
        search == null
            ? LogsSearch.seqDb(name, parts.expression())
            : search.withSeqDb(parts.expression());
  }

  private LogsSeqQlBuilder with(Parts value) {
    return new LogsSeqQlBuilder(value, search, search.name());
  }

  @Override
  LogsSearch search() {
    return search;
  }

  @Override
  LogsSeqQlBuilder with(LogsSearch value) {
    return new LogsSeqQlBuilder(parts, value, value.name());
  }

  /**
   * Documents per answer (a page's size).
   *
   * <p>Example: {@code logs("page").seqql("*").size(100)}.
   */
  public LogsSeqQlBuilder size(int documents) {
    return with(
        new Parts(
            parts.query(),
            parts.from(),
            parts.to(),
            Expression.<Object>constant(documents),
            parts.offset(),
            parts.withTotal(),
            parts.ascending(),
            parts.aggregations(),
            parts.histogram()));
  }

  /**
   * Documents per answer, from the session ({@code "#{pageSize}"}).
   *
   * <p>Example: {@code logs("page").seqql("*").size("#{pageSize}")}.
   */
  public LogsSeqQlBuilder size(String el) {
    return with(
        new Parts(
            parts.query(),
            parts.from(),
            parts.to(),
            Expression.el(el),
            parts.offset(),
            parts.withTotal(),
            parts.ascending(),
            parts.aggregations(),
            parts.histogram()));
  }

  /**
   * Documents to skip: a page's offset.
   *
   * <p>Example: {@code logs("page").seqql("*").size(100).offset(200)}.
   */
  public LogsSeqQlBuilder offset(long documents) {
    return offset(Expression.<Object>constant(documents));
  }

  /**
   * Documents to skip, from the session ({@code "#{offset}"}).
   *
   * <p>Example: {@code logs("page").seqql("*").size(100).offset("#{offset}")}.
   */
  public LogsSeqQlBuilder offset(String el) {
    return offset(Expression.el(el));
  }

  private LogsSeqQlBuilder offset(Expression<Object> value) {
    return with(
        new Parts(
            parts.query(),
            parts.from(),
            parts.to(),
            parts.size(),
            value,
            parts.withTotal(),
            parts.ascending(),
            parts.aggregations(),
            parts.histogram()));
  }

  /**
   * The window's start, RFC 3339 ({@code 2025-01-01T00:00:00Z}), EL allowed.
   *
   * <p>Example: {@code logs("today").seqql("*").from("2026-01-01T00:00:00Z")}.
   */
  public LogsSeqQlBuilder from(String el) {
    return with(
        new Parts(
            parts.query(),
            Expression.text(el),
            parts.to(),
            parts.size(),
            parts.offset(),
            parts.withTotal(),
            parts.ascending(),
            parts.aggregations(),
            parts.histogram()));
  }

  /**
   * The window's end, RFC 3339, EL allowed.
   *
   * <p>Example: {@code logs("today").seqql("*").to("#{until}")}.
   */
  public LogsSeqQlBuilder to(String el) {
    return with(
        new Parts(
            parts.query(),
            parts.from(),
            Expression.text(el),
            parts.size(),
            parts.offset(),
            parts.withTotal(),
            parts.ascending(),
            parts.aggregations(),
            parts.histogram()));
  }

  /**
   * Asks for the number of matching documents ({@code with_total}), for {@link #checkTotal}.
   *
   * <p>Example: {@code logs("count").seqql("status:500").withTotal().check(total().gte(1))}.
   */
  public LogsSeqQlBuilder withTotal() {
    return with(
        new Parts(
            parts.query(),
            parts.from(),
            parts.to(),
            parts.size(),
            parts.offset(),
            true,
            parts.ascending(),
            parts.aggregations(),
            parts.histogram()));
  }

  /**
   * Oldest documents first (seq-db's default is newest first).
   *
   * <p>Example: {@code logs("first").seqql("*").size(10).oldestFirst()}.
   */
  public LogsSeqQlBuilder oldestFirst() {
    return with(
        new Parts(
            parts.query(),
            parts.from(),
            parts.to(),
            parts.size(),
            parts.offset(),
            parts.withTotal(),
            true,
            parts.aggregations(),
            parts.histogram()));
  }

  /**
   * Aggregations of the matching documents, added to any given before; their buckets are named
   * {@code "0"}, {@code "1"}... in this order (for {@link #checkBucketCounts}).
   *
   * <p>Example: {@code logs("by
   * status").seqql("*").aggregate(SeqDbAggregation.count().groupBy("status"))}.
   */
  public LogsSeqQlBuilder aggregate(SeqDbAggregation... aggregations) {
    List<SeqDbAggregation> all = new ArrayList<>(parts.aggregations());
    all.addAll(Arrays.asList(aggregations));
    return with(
        new Parts(
            parts.query(),
            parts.from(),
            parts.to(),
            parts.size(),
            parts.offset(),
            parts.withTotal(),
            parts.ascending(),
            all,
            parts.histogram()));
  }

  /**
   * A histogram of the matching documents over time, one bucket per {@code interval} ({@code 1m},
   * {@code 5s}; EL allowed), named {@value SeqDbQuery#HISTOGRAM}.
   *
   * <p>Example: {@code logs("per minute").seqql("status:500").histogram("1m")}.
   */
  public LogsSeqQlBuilder histogram(String interval) {
    return with(
        new Parts(
            parts.query(),
            parts.from(),
            parts.to(),
            parts.size(),
            parts.offset(),
            parts.withTotal(),
            parts.ascending(),
            parts.aggregations(),
            Expression.text(interval)));
  }
}
