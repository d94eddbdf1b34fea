package io.fusillade.scenarios.sql;

import static io.fusillade.gatling.sql.SqlDsl.sqlCall;
import static io.gatling.javaapi.core.CoreDsl.exec;

import io.fusillade.gatling.FusilladeLimit;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.sql.SqlProtocolBuilder;
import io.fusillade.limit.LimitSettings;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.scenarios.WorkloadProperties;
import io.fusillade.sql.SqlClientOptions;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadData;
import io.gatling.javaapi.core.Simulation;

/**
 * The maximum sustainable rate of a workload's query mix ({@code fusillade limit}): the arrival
 * rate of queries drawn from the mix is searched as {@link FusilladeLimit} does, judged by the
 * objectives of the workload's {@code limit:} section or {@code -Dfusillade.limit.*} ({@link
 * LimitSettings#fromProperties}). The run has no checks of its own: its verdict is the search's.
 *
 * <p>The lanes (requests in flight at once) are at most what the SQL client holds without refusing
 * a request, its connections and their queue, so that an overloaded database makes the requests
 * wait (and fails the step on latency or rate) instead of failing them as the injector's. Target
 * properties: see {@link SqlTarget}.
 */
public class SqlLimitRun extends Simulation {
  {
    RunSettings properties = RunPlan.current().settings();
    Workload workload = WorkloadProperties.workload(properties);
    RunSettings given = workload.load().under(properties);
    long seed = WorkloadProperties.seed(given, workload);
    LimitSettings limit = WorkloadProperties.limit(workload);
    int pool = given.pool() != null ? given.pool() : SqlProtocolBuilder.DEFAULT_POOL_SIZE;
    int nodes = Math.max(1, given.urls().size());
    int held = nodes * (pool + SqlClientOptions.defaultQueueCapacity(pool));
    limit = limit.withLanes(Math.min(limit.lanes(), held));
    FusilladeRun.settings(RunSettings.NONE.withWorkload(given.workload()).withSeed(seed));

    QueryMix mix = new QueryMix(new WorkloadData(workload, seed));
    setUp(FusilladeLimit.search(limit).population("limit", exec(sqlCall(session -> mix.next()))))
        .protocols(SqlTarget.prepare(given, workload, seed));
  }
}
