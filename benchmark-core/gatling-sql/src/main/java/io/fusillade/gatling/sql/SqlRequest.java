package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import java.util.List;

/** A named SQL request waiting for what it does. Immutable. */
public final class SqlRequest {
  private final Expression<String> name;

  SqlRequest(Expression<String> name) {
    this.name = name;
  }

  /** The request's name (for tests). */
  Expression<String> name() {
    return name;
  }

  /**
   * A query: its rows are read and counted. Placeholders are JDBC's {@code ?} (PostgreSQL's {@code
   * $1} also works), bound with {@link SqlStatementBuilder#params(String...)} and its overloads.
   * The text is a Gatling EL template ({@code "select * from #{table} where id = ?"}): values go in
   * placeholders, EL is for what a placeholder cannot hold (a table's name), and each distinct text
   * is prepared apart: keep them few.
   *
   * <p>Example: {@code sql("by id").query("select * from t where id = ?").params("#{id}")}.
   */
  public SqlStatementBuilder query(String sql) {
    return new SqlStatementBuilder(SqlStatement.of(name, sql));
  }

  /**
   * An insert, update or delete: the rows it affected are counted. The text is a Gatling EL
   * template, as a {@link #query query}'s.
   *
   * <p>Example: {@code sql("pay").update("update orders set paid = true where id =
   * ?").params("#{orderId}")}.
   */
  public SqlStatementBuilder update(String sql) {
    return query(sql);
  }

  /**
   * Several statements run as one transaction ({@code autoCommit} off): committed together, or
   * rolled back together when one fails — then the request is KO with the failure's SQLState.
   *
   * <p>Example: {@code sql("order").transaction(statement("insert ..."), statement("update ..."))}.
   */
  public SqlTransactionBuilder transaction(SqlTransactionBuilder.Statement... statements) {
    return new SqlTransactionBuilder(new SqlTransaction(name, List.of(statements)));
  }

  /**
   * One statement executed for several sets of values as a JDBC batch.
   *
   * <p>Example: {@code sql("load").batch("insert into t values (?, ?)").parameterSets(session ->
   * rows)}.
   */
  public SqlBatchBuilder batch(String sql) {
    return new SqlBatchBuilder(new SqlBatch(name, sql, null));
  }
}
