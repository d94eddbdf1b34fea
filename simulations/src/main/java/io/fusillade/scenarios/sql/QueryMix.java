package io.fusillade.scenarios.sql;

import io.fusillade.gatling.InjectorShare;
import io.fusillade.gatling.sql.SqlCall;
import io.fusillade.gen.AliasTable;
import io.fusillade.gen.Rng;
import io.fusillade.gen.RowGenerator;
import io.fusillade.gen.Seeds;
import io.fusillade.workload.Query;
import io.fusillade.workload.WorkloadData;
import java.util.List;

/**
 * An endless, seeded draw from a workload's queries in proportion to their counts (Picostress's
 * {@code const_rps} mix), each with values from the query's parameter stream. Draws are taken in
 * arrival order under a lock, so the n-th arrival sends the same call in every run with one seed.
 * The workload's {@code injected} statements take their share of the arrivals ({@link
 * InjectedSql}).
 */
final class QueryMix {
  private final List<Query> queries;
  private final AliasTable weights;
  private final Rng rng;
  private final RowGenerator[] params;
  private final InjectedSql injected;

  QueryMix(WorkloadData data) {
    this.injected = new InjectedSql(data.workload().injected(), data.seed());
    this.queries = data.workload().queries();
    this.weights = new AliasTable(queries.stream().map(q -> (double) q.count()).toList());
    this.rng = new Rng(Seeds.stream(data.seed(), "fusillade", "query mix"));
    this.params = new RowGenerator[queries.size()];
    for (int q = 0; q < params.length; q++) {
      params[q] = data.params(q, 0, 1);
    }
  }

  /**
   * The next call of this injector's share of the test: of {@code share.count()} draws in a row,
   * the {@code share.index()}-th (see {@link InjectorShare}), all under the lock.
   */
  synchronized SqlCall next(InjectorShare share) {
    return share.next(this::next);
  }

  synchronized SqlCall next() {
    SqlCall bad = injected.next();
    if (bad != null) {
      return bad;
    }
    int index = weights.sample(rng);
    Query query = queries.get(index);
    return QueryCalls.of(query, params[index].next());
  }
}
