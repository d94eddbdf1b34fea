package io.fusillade.scenarios.sql;

import io.fusillade.gatling.sql.SqlCall;
import io.fusillade.workload.Query;
import java.util.Arrays;

/**
 * A workload query with one set of its values, as the request the runners send: its statement, or
 * its transaction's statements sharing the values ({@code transaction:} in the file).
 */
final class QueryCalls {
  private QueryCalls() {}

  /**
   * @param query the query
   * @param values its parameters' values, in order
   * @return the request, under the query's name
   */
  static SqlCall of(Query query, Object[] values) {
    return query.isTransaction()
        ? SqlCall.transaction(query.name(), query.statements(), Arrays.asList(values))
        : new SqlCall(query.name(), query.sql(), Arrays.asList(values));
  }
}
