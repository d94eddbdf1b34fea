package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.check.Check;
import io.fusillade.sql.SqlResult;
import java.util.ArrayList;
import java.util.List;

/**
 * A query or update as configured: the value a {@link SqlStatementBuilder} wraps. Each {@code
 * with...} returns a changed copy.
 *
 * @param params the values of the placeholders, in order
 * @param fetchSize rows fetched at a time, or 0 to let the driver read the result whole
 * @param limits its own timeout and tries
 */
record SqlStatement(
    Expression<String> name,
    String sql,
    List<Expression<?>> params,
    List<Check<SqlResult, ?>> checks,
    int fetchSize,
    RequestLimits limits) {

  SqlStatement {
    params = List.copyOf(params);
    checks = List.copyOf(checks);
  }

  static SqlStatement of(Expression<String> name, String sql) {
    return new SqlStatement(name, sql, List.of(), List.of(), 0, RequestLimits.NONE);
  }

  SqlStatement withParams(List<Expression<?>> value) {
    return new SqlStatement(name, sql, value, checks, fetchSize, limits);
  }

  SqlStatement withParam(Expression<?> value) {
    return withParams(append(params, value));
  }

  SqlStatement withChecks(List<? extends Check<SqlResult, ?>> more) {
    List<Check<SqlResult, ?>> all = new ArrayList<>(checks);
    all.addAll(more);
    return new SqlStatement(name, sql, params, all, fetchSize, limits);
  }

  SqlStatement withFetchSize(int rows) {
    return new SqlStatement(name, sql, params, checks, rows, limits);
  }

  SqlStatement withLimits(RequestLimits value) {
    return new SqlStatement(name, sql, params, checks, fetchSize, value);
  }

  static <T> List<T> append(List<T> list, T value) {
    List<T> all = new ArrayList<>(list);
    all.add(value);
    return all;
  }
}
