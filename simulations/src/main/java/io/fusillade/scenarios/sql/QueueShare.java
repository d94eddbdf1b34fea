package io.fusillade.scenarios.sql;

import io.fusillade.gatling.sql.SqlCall;
import io.fusillade.gen.RowGenerator;
import io.fusillade.gen.Seeds;
import io.fusillade.workload.Query;
import io.fusillade.workload.WorkloadData;
import java.util.List;

/**
 * One virtual user's share of a workload's query queue (Picostress's {@code queue} mode): every
 * N-th query of the seeded, shuffled queue, each with values from that user's own parameter
 * streams. The same seed, users and user index always give the same calls.
 */
final class QueueShare {
  private final List<Query> queries;
  private final int[] share;
  private final RowGenerator[] params;
  private int position;
  private final InjectedSql injected;

  QueueShare(WorkloadData data, int user, int users) {
    // each user's injected requests come between its queued queries, which are all still sent
    this.injected =
        new InjectedSql(data.workload().injected(), Seeds.derive(data.seed(), (long) user));
    this.queries = data.workload().queries();
    this.share = data.queue().forUser(user, users);
    this.params = new RowGenerator[queries.size()];
    for (int q = 0; q < params.length; q++) {
      params[q] = data.params(q, user, users);
    }
  }

  boolean hasNext() {
    return position < share.length;
  }

  SqlCall next() {
    SqlCall bad = injected.next();
    if (bad != null) {
      return bad;
    }
    int index = share[position++];
    Query query = queries.get(index);
    return QueryCalls.of(query, params[index].next());
  }

  int size() {
    return share.length;
  }
}
