package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.function.Function;

/**
 * A batch as configured: the value a {@link SqlBatchBuilder} wraps.
 *
 * @param parameterSets the sets of values per session, or null until given
 * @param limits its own timeout and tries
 */
record SqlBatch(
    Expression<String> name,
    String sql,
    Function<Session, List<?>> parameterSets,
    RequestLimits limits) {

  SqlBatch(Expression<String> name, String sql, Function<Session, List<?>> parameterSets) {
    this(name, sql, parameterSets, RequestLimits.NONE);
  }

  SqlBatch withParameterSets(Function<Session, List<?>> value) {
    return new SqlBatch(name, sql, value, limits);
  }

  SqlBatch withLimits(RequestLimits value) {
    return new SqlBatch(name, sql, parameterSets, value);
  }
}
