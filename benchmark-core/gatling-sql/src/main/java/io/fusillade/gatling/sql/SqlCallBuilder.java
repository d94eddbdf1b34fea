package io.fusillade.gatling.sql;

import io.fusillade.sql.SqlPlaceholders;
import io.fusillade.sql.Statements;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A request whose name, statement and values come from the session. Immutable: it wraps the one
 * function that decides them.
 */
public final class SqlCallBuilder implements ActionBuilder {
  private final Function<Session, SqlCall> call;
  private final RequestLimits limits;

  SqlCallBuilder(Function<Session, SqlCall> call) {
    this(call, RequestLimits.NONE);
  }

  private SqlCallBuilder(Function<Session, SqlCall> call, RequestLimits limits) {
    if (call == null) {
      throw new IllegalArgumentException("sqlCall needs a function of the session");
    }
    this.call = call;
    this.limits = limits;
  }

  /**
   * The calls' timeout, over the protocol's; a call's own ({@link SqlCall#withTimeout}) wins.
   *
   * <p>Example: {@code sqlCall(session -> next(session)).timeout(Duration.ofMinutes(10))}.
   */
  public SqlCallBuilder timeout(java.time.Duration timeout) {
    return new SqlCallBuilder(call, limits.withTimeout(timeout));
  }

  /**
   * The calls' most tries, over the protocol's; a call's own ({@link SqlCall#withMaxTries}) wins.
   *
   * <p>Example: {@code sqlCall(session -> next(session)).maxTries(3)}.
   */
  public SqlCallBuilder maxTries(int tries) {
    return new SqlCallBuilder(call, limits.withMaxTries(tries));
  }

  /** The limits of one call: its own, else the builder's. */
  private static RequestLimits limits(SqlCall call, RequestLimits builder) {
    if (call.timeout() == null && call.maxTries() == 0) {
      return builder;
    }
    return new RequestLimits(
        call.timeout() != null ? call.timeout() : builder.timeout(),
        call.maxTries() != 0 ? call.maxTries() : builder.maxTries());
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    // A workload has few statements: translate each once.
    Map<String, SqlPlaceholders.Jdbc> translated = new ConcurrentHashMap<>();
    RequestLimits given = limits;
    return SqlAction.builder(
        (session, unused) -> {
          SqlCall resolved = call.apply(new Session(session));
          if (resolved == null) {
            throw new IllegalArgumentException("the call function returned no request");
          }
          if (!resolved.more().isEmpty()) {
            List<Statements.Bound> statements = new java.util.ArrayList<>();
            statements.add(bound(resolved.sql(), resolved.params(), translated));
            for (String sql : resolved.more()) {
              statements.add(bound(sql, resolved.params(), translated));
            }
            return new ResolvedRequest(
                resolved.name(),
                Statements.transaction(statements),
                List.of(),
                null,
                resolved.params().isEmpty() ? null : resolved.params().get(0),
                limits(resolved, given));
          }
          SqlPlaceholders.Jdbc jdbc =
              translated.computeIfAbsent(resolved.sql(), SqlPlaceholders::toJdbc);
          Object[] values = jdbc.bind(resolved.params().toArray());
          return new ResolvedRequest(
              resolved.name(),
              Statements.query(jdbc.sql(), values),
              List.of(),
              null,
              resolved.params().isEmpty() ? null : resolved.params().get(0),
              limits(resolved, given));
        });
  }

  /**
   * One statement of a transaction: with values, its {@code $n} placeholders take the n-th of the
   * values the statements share; without, the statement as written.
   */
  private static Statements.Bound bound(
      String sql, List<Object> shared, Map<String, SqlPlaceholders.Jdbc> translated) {
    if (shared.isEmpty()) {
      return new Statements.Bound(sql, new Object[0]);
    }
    SqlPlaceholders.Jdbc jdbc = translated.computeIfAbsent(sql, SqlPlaceholders::toJdbc);
    return new Statements.Bound(jdbc.sql(), jdbc.bind(shared.toArray()));
  }
}
