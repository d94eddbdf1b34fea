package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import io.fusillade.sql.SqlPlaceholders;
import io.fusillade.sql.Statements;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Statements run as one transaction. Immutable: it wraps one {@link SqlTransaction}. */
public final class SqlTransactionBuilder implements ActionBuilder {
  private final SqlTransaction transaction;

  SqlTransactionBuilder(SqlTransaction transaction) {
    this.transaction = transaction;
  }

  /** What this builder holds (for tests). */
  SqlTransaction transaction() {
    return transaction;
  }

  /**
   * One statement of a transaction: SQL and its parameters, typed as {@link SqlStatementBuilder}'s
   * (see {@link SqlDsl#statement}); {@code param(...)} returns a copy with one more.
   */
  public record Statement(String sql, List<Expression<?>> params) {
    public Statement {
      params = List.copyOf(params);
    }

    /**
     * Adds a parameter: a Gatling EL string ({@code "#{id}"}), or a constant text.
     *
     * <p>Example: {@code statement("insert into t(a, b) values (?, ?)", "#{a}").param("#{b}")}.
     */
    public Statement param(String expression) {
      return param(Expression.el(expression));
    }

    /**
     * Adds a constant parameter.
     *
     * <p>Example: {@code statement("insert into t(a, b) values (?, ?)", "#{a}").param(10)}.
     */
    public Statement param(Object constant) {
      return param(Expression.constant(constant));
    }

    /**
     * Adds a parameter computed from the session.
     *
     * <p>Example: {@code statement("insert into t(a) values (?)").param(session ->
     * session.userId())}.
     */
    public Statement param(Function<Session, ?> value) {
      return param(Expression.of(value));
    }

    /**
     * Adds a parameter.
     *
     * <p>Example: {@code statement("insert into t(a) values (?)").param(Expression.constant(1))}.
     */
    public Statement param(Expression<?> value) {
      return new Statement(sql, SqlStatement.append(params, value));
    }
  }

  /**
   * This request's timeout, over the protocol's {@code requestTimeout}: past it the request is
   * cancelled on the server and is KO "timed out after ...".
   *
   * <p>Example: {@code sql("order").transaction(...).timeout(Duration.ofMinutes(10))}.
   */
  public SqlTransactionBuilder timeout(java.time.Duration timeout) {
    return new SqlTransactionBuilder(
        transaction.withLimits(transaction.limits().withTimeout(timeout)));
  }

  /**
   * This request's most tries, over the protocol's {@code maxTries}: it is sent again after a
   * serialization failure (SQLState 40001) or a deadlock (40P01), as pgbench's {@code --max-tries}.
   *
   * <p>Example: {@code sql("transfer").transaction(...).maxTries(5)}.
   */
  public SqlTransactionBuilder maxTries(int tries) {
    return new SqlTransactionBuilder(
        transaction.withLimits(transaction.limits().withMaxTries(tries)));
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    SqlTransaction t = transaction;
    List<Expression<SqlPlaceholders.Jdbc>> texts = texts(t);
    return SqlAction.builder(
        t.name(),
        (session, name) ->
            new ResolvedRequest(name, Statements.transaction(bind(t, texts, session)), List.of())
                .limited(t.limits()));
  }

  /**
   * Each statement's text as the driver takes it: Gatling EL, as a single statement's is ({@link
   * SqlStatementBuilder#jdbc}), rewritten once when constant, per request otherwise.
   */
  static List<Expression<SqlPlaceholders.Jdbc>> texts(SqlTransaction t) {
    List<Expression<SqlPlaceholders.Jdbc>> texts = new ArrayList<>();
    for (Statement statement : t.statements()) {
      texts.add(SqlStatementBuilder.jdbc(statement.sql()));
    }
    return texts;
  }

  /** The statements of one execution: their texts and values resolved for {@code session}. */
  static List<Statements.Bound> bind(
      SqlTransaction t,
      List<Expression<SqlPlaceholders.Jdbc>> texts,
      io.gatling.core.session.Session session) {
    List<Statements.Bound> bound = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      SqlPlaceholders.Jdbc jdbc = texts.get(i).resolve(session);
      Object[] values = SqlParams.values(t.statements().get(i).params(), session);
      bound.add(new Statements.Bound(jdbc.sql(), jdbc.bind(values)));
    }
    return bound;
  }
}
