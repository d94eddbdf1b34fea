package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import io.fusillade.sql.SqlCheck;
import io.fusillade.sql.SqlPlaceholders;
import io.fusillade.sql.Statements;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A query or update ready to run, with its parameters and checks. Immutable, in Gatling's style: it
 * wraps one {@link SqlStatement} and every method returns a new builder around a changed copy.
 *
 * <p>Parameters are typed as in Gatling's Java DSL: a {@code String} is a Gatling EL expression
 * ({@code "#{id}"} is the session attribute {@code id}, with its own type; a string without {@code
 * #{} is itself), any other object a constant, a {@code Function<Session, ?>} a value computed per
 * request, and an {@link Expression} any of these.
 */
public final class SqlStatementBuilder implements ActionBuilder {
  private final SqlStatement statement;

  SqlStatementBuilder(SqlStatement statement) {
    this.statement = statement;
  }

  /** What this builder holds (for tests). */
  SqlStatement statement() {
    return statement;
  }

  /** The values of the placeholders, in order: Gatling EL strings (or constant texts). */
  public SqlStatementBuilder params(String... expressions) {
    return new SqlStatementBuilder(statement.withParams(SqlParams.el(expressions)));
  }

  /** The values of the placeholders, in order. */
  public SqlStatementBuilder params(Expression<?>... values) {
    return new SqlStatementBuilder(statement.withParams(List.of(values)));
  }

  /** Adds a parameter: a Gatling EL string ({@code "#{id}"}), or a constant text. */
  public SqlStatementBuilder param(String expression) {
    return new SqlStatementBuilder(statement.withParam(Expression.el(expression)));
  }

  /** Adds a constant parameter. */
  public SqlStatementBuilder param(Object constant) {
    return new SqlStatementBuilder(statement.withParam(Expression.constant(constant)));
  }

  /** Adds a parameter computed from the session. */
  public SqlStatementBuilder param(Function<Session, ?> value) {
    return new SqlStatementBuilder(statement.withParam(Expression.of(value)));
  }

  /** Adds a parameter. */
  public SqlStatementBuilder param(Expression<?> value) {
    return new SqlStatementBuilder(statement.withParam(value));
  }

  /**
   * Checks on the result (see {@link SqlDsl#rowCount}); a failed check makes the request KO. A
   * {@link SqlDsl#column(String) column} check can save a value for the next requests.
   */
  public SqlStatementBuilder check(SqlCheck... more) {
    return new SqlStatementBuilder(statement.withChecks(List.of(more)));
  }

  /**
   * Streams the result {@code rows} at a time (in a transaction, as PostgreSQL's driver needs)
   * instead of letting the driver buffer it whole: for queries that return many rows.
   */
  public SqlStatementBuilder fetchSize(int rows) {
    return new SqlStatementBuilder(statement.withFetchSize(rows));
  }

  /**
   * This request's timeout, over the protocol's {@code requestTimeout}: past it the request is
   * cancelled on the server and is KO "timed out after ...".
   *
   * <p>Example: {@code sql("report").query(sql).timeout(Duration.ofMinutes(10))}.
   */
  public SqlStatementBuilder timeout(java.time.Duration timeout) {
    return new SqlStatementBuilder(statement.withLimits(statement.limits().withTimeout(timeout)));
  }

  /**
   * This request's most tries, over the protocol's {@code maxTries}: it is sent again after a
   * serialization failure (SQLState 40001) or a deadlock (40P01), as pgbench's {@code --max-tries}.
   *
   * <p>Example: {@code sql("transfer").update(sql).maxTries(5)}.
   */
  public SqlStatementBuilder maxTries(int tries) {
    return new SqlStatementBuilder(statement.withLimits(statement.limits().withMaxTries(tries)));
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    SqlStatement s = statement;
    SqlPlaceholders.Jdbc jdbc = SqlPlaceholders.toJdbc(s.sql());
    Set<String> capture = new HashSet<>();
    s.checks().forEach(check -> capture.addAll(check.columns()));
    Set<String> columns = Set.copyOf(capture);
    SavedColumns saved = SavedColumns.of(s.checks());
    return SqlAction.builder(
        s.name(),
        (session, name) -> {
          Object[] values = jdbc.bind(SqlParams.values(s.params(), session));
          var work = Statements.query(jdbc.sql(), values, columns, s.fetchSize());
          if (saved.isEmpty()) {
            return new ResolvedRequest(name, work, s.checks(), null).limited(s.limits());
          }
          SavedColumns.Capture request = saved.capture(s.checks());
          return new ResolvedRequest(name, work, request.checks(), request).limited(s.limits());
        });
  }
}
