package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.function.Function;

/**
 * A batch as configured: the value a {@link SqlBatchBuilder} wraps.
 *
 * @param parameterSets the sets of values per session, or null until given
 */
record SqlBatch(Expression<String> name, String sql, Function<Session, List<?>> parameterSets) {

  SqlBatch withParameterSets(Function<Session, List<?>> value) {
    return new SqlBatch(name, sql, value);
  }
}
