package io.fusillade.gatling.sql;

import java.util.List;

/** A named SQL request waiting for what it does. */
public final class SqlRequest {
  private final String name;

  SqlRequest(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a SQL request needs a name");
    }
    this.name = name;
  }

  /**
   * A query: its rows are read and counted. Placeholders are JDBC's {@code ?} (PostgreSQL's {@code
   * $1} also works), bound with {@link SqlStatementBuilder#params(Object...)}.
   */
  public SqlStatementBuilder query(String sql) {
    return new SqlStatementBuilder(name, sql, List.of(), List.of(), 0);
  }

  /** An insert, update or delete: the rows it affected are counted. */
  public SqlStatementBuilder update(String sql) {
    return query(sql);
  }

  /**
   * Several statements run as one transaction ({@code autoCommit} off): committed together, or
   * rolled back together when one fails — then the request is KO with the failure's SQLState.
   */
  public SqlTransactionBuilder transaction(SqlTransactionBuilder.Statement... statements) {
    return new SqlTransactionBuilder(name, List.of(statements));
  }

  /** One statement executed for several sets of values as a JDBC batch. */
  public SqlBatchBuilder batch(String sql) {
    return new SqlBatchBuilder(name, sql, null);
  }
}
