package io.fusillade.gatling.sql;

import java.util.List;

/** A named SQL request waiting for its statement. */
public final class SqlRequest {
  private final String name;

  SqlRequest(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a SQL request needs a name");
    }
    this.name = name;
  }

  /**
   * A statement to execute: a query, whose rows are read and counted, or an update. Parameters are
   * JDBC {@code ?} placeholders, bound with {@link SqlStatementBuilder#params(Object...)}.
   */
  public SqlStatementBuilder query(String sql) {
    return new SqlStatementBuilder(name, sql, List.of());
  }
}
