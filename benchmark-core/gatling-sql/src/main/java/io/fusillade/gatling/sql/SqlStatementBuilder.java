package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.check.Check;
import io.fusillade.gatling.check.CheckIf;
import io.fusillade.gatling.check.Checks;
import io.fusillade.sql.SqlPlaceholders;
import io.fusillade.sql.SqlResult;
import io.fusillade.sql.Statements;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
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

  /**
   * The values of the placeholders, in order: Gatling EL strings (or constant texts).
   *
   * <p>Example: {@code .params("#{customer}", "#{day}")}.
   */
  public SqlStatementBuilder params(String... expressions) {
    return new SqlStatementBuilder(statement.withParams(SqlParams.el(expressions)));
  }

  /**
   * The values of the placeholders, in order.
   *
   * <p>Example: {@code .params(Expression.el("#{customer}"), Expression.constant(10))}.
   */
  public SqlStatementBuilder params(Expression<?>... values) {
    return new SqlStatementBuilder(statement.withParams(List.of(values)));
  }

  /**
   * Adds a parameter: a Gatling EL string ({@code "#{id}"}), or a constant text.
   *
   * <p>Example: {@code .param("#{customer}")}.
   */
  public SqlStatementBuilder param(String expression) {
    return new SqlStatementBuilder(statement.withParam(Expression.el(expression)));
  }

  /**
   * Adds a constant parameter.
   *
   * <p>Example: {@code .param(10)}.
   */
  public SqlStatementBuilder param(Object constant) {
    return new SqlStatementBuilder(statement.withParam(Expression.constant(constant)));
  }

  /**
   * Adds a parameter computed from the session.
   *
   * <p>Example: {@code .param(session -> session.getLong("customer") % 16)}.
   */
  public SqlStatementBuilder param(Function<Session, ?> value) {
    return new SqlStatementBuilder(statement.withParam(Expression.of(value)));
  }

  /**
   * Adds a parameter.
   *
   * <p>Example: {@code .param(Expression.constant(LocalDate.of(2026, 1, 1)))}.
   */
  public SqlStatementBuilder param(Expression<?> value) {
    return new SqlStatementBuilder(statement.withParam(value));
  }

  /**
   * Checks on the result, in Gatling's idiom ({@link SqlDsl#rowCount()}, {@link
   * SqlDsl#column(String)}); the first that fails makes the request KO with its message, and a
   * check's {@code saveAs} keeps a value for the next requests.
   *
   * <p>Example: {@code .check(rowCount().is(1), column("id").saveAs("orderId"))}.
   */
  @SafeVarargs
  public final SqlStatementBuilder check(Check<SqlResult, ?>... checks) {
    return new SqlStatementBuilder(statement.withChecks(List.of(checks)));
  }

  /**
   * Checks run only for the sessions where a Gatling EL string is {@code true}.
   *
   * <p>Example: {@code .checkIf("#{audit}").then(column("status").is("paid"))}.
   */
  public CheckIf<SqlResult, SqlStatementBuilder> checkIf(String condition) {
    return new CheckIf<>(
        CheckIf.el(condition), checks -> new SqlStatementBuilder(statement.withChecks(checks)));
  }

  /**
   * Checks run only for the sessions where {@code condition} holds.
   *
   * <p>Example: {@code .checkIf(session -> session.getBoolean("audit")).then(rowCount().is(1))}.
   */
  public CheckIf<SqlResult, SqlStatementBuilder> checkIf(Function<Session, Boolean> condition) {
    return new CheckIf<>(
        Expression.of(condition), checks -> new SqlStatementBuilder(statement.withChecks(checks)));
  }

  /**
   * Streams the result {@code rows} at a time (in a transaction, as PostgreSQL's driver needs)
   * instead of letting the driver buffer it whole: for queries that return many rows.
   *
   * <p>Example: {@code sql("all rows").query("select * from big").fetchSize(1000)}.
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

  /**
   * A statement's text as the driver takes it: a Gatling EL template ({@code "select * from
   * #{table} where id = ?"}), its placeholders rewritten once for a constant text, per request
   * otherwise.
   */
  static Expression<SqlPlaceholders.Jdbc> jdbc(String sql) {
    return Expression.text(sql).map(SqlPlaceholders::toJdbc);
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    SqlStatement s = statement;
    Expression<SqlPlaceholders.Jdbc> text = jdbc(s.sql());
    Checks<SqlResult> checks = Checks.<SqlResult>none().and(s.checks());
    Set<String> columns = checks.needs();
    return SqlAction.builder(
        s.name(),
        (session, name) -> {
          SqlPlaceholders.Jdbc jdbc = text.resolve(session);
          Object[] values = jdbc.bind(SqlParams.values(s.params(), session));
          var work = Statements.query(jdbc.sql(), values, columns, s.fetchSize());
          if (checks.isEmpty()) {
            return new ResolvedRequest(name, work, List.of()).limited(s.limits());
          }
          SqlSessionChecks bound = new SqlSessionChecks(checks, columns, session);
          return new ResolvedRequest(name, work, List.of(bound), bound).limited(s.limits());
        });
  }
}
