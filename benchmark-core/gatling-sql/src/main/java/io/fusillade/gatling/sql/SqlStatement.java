package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import io.fusillade.sql.SqlCheck;
import java.util.ArrayList;
import java.util.List;

/**
 * A query or update as configured: the value a {@link SqlStatementBuilder} wraps. Each {@code
 * with...} returns a changed copy.
 *
 * @param params the values of the placeholders, in order
 * @param fetchSize rows fetched at a time, or 0 to let the driver read the result whole
 */
record SqlStatement(
    Expression<String> name,
    String sql,
    List<Expression<?>> params,
    List<SqlCheck> checks,
    int fetchSize) {

  SqlStatement {
    params = List.copyOf(params);
    checks = List.copyOf(checks);
  }

  static SqlStatement of(Expression<String> name, String sql) {
    return new SqlStatement(name, sql, List.of(), List.of(), 0);
  }

  SqlStatement withParams(List<Expression<?>> value) {
    return new SqlStatement(name, sql, value, checks, fetchSize);
  }

  SqlStatement withParam(Expression<?> value) {
    return withParams(append(params, value));
  }

  SqlStatement withChecks(List<SqlCheck> more) {
    List<SqlCheck> all = new ArrayList<>(checks);
    all.addAll(more);
    return new SqlStatement(name, sql, params, all, fetchSize);
  }

  SqlStatement withFetchSize(int rows) {
    return new SqlStatement(name, sql, params, checks, rows);
  }

  static <T> List<T> append(List<T> list, T value) {
    List<T> all = new ArrayList<>(list);
    all.add(value);
    return all;
  }
}
