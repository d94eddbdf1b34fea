package io.fusillade.scenarios.sql;

import io.fusillade.gatling.sql.SqlCall;
import io.fusillade.workload.Query;
import java.util.Arrays;

/**
 * A workload query with one set of its values, as the request the runners send: its statement, or
 * its transaction's statements sharing the values ({@code transaction:} in the file), with the
 * query's own {@code timeout:} and {@code max_tries:} (else the run's).
 */
final class QueryCalls {
  private QueryCalls() {}

  /**
   * @param query the query
   * @param values its parameters' values, in order
   * @return the request, under the query's name
   */
  static SqlCall of(Query query, Object[] values) {
    SqlCall call =
        query.isTransaction()
            ? SqlCall.transaction(query.name(), query.statements(), Arrays.asList(values))
            : new SqlCall(query.name(), query.sql(), Arrays.asList(values));
    if (query.limits().timeout() != null) {
      call = call.withTimeout(query.limits().timeout());
    }
    if (query.limits().maxTries() > 0) {
      call = call.withMaxTries(query.limits().maxTries());
    }
    return call;
  }
}
