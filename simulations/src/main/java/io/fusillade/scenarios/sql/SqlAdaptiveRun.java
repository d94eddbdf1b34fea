package io.fusillade.scenarios.sql;

import static io.fusillade.gatling.sql.SqlDsl.sqlCall;
import static io.gatling.javaapi.core.CoreDsl.exec;

import io.fusillade.gatling.FusilladeAdaptive;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.sql.SqlProtocolBuilder;
import io.fusillade.limit.AdaptiveSettings;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.scenarios.WorkloadProperties;
import io.fusillade.sql.SqlClientOptions;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadData;
import io.gatling.javaapi.core.Simulation;

/**
 * A workload's query mix at the rate its capacity allows ({@code fusillade run --mode adaptive}):
 * the arrival rate of queries drawn from the mix is set every second to hold the objectives, as
 * {@link FusilladeAdaptive} does, and the rate it settled at over time is the run's result. The run
 * has no checks of its own: its objectives are held, not judged after.
 *
 * <p>The lanes (requests in flight at once) are at most what the SQL client holds without refusing
 * a request, its connections and their queue, as in a limit search: an overloaded database makes
 * the requests wait (and fails the window on latency or rate) instead of failing them as the
 * injector's. Target properties: see {@link SqlTarget}.
 */
public class SqlAdaptiveRun extends Simulation {
  {
    RunSettings properties = RunPlan.current().settings();
    Workload workload = WorkloadProperties.workload(properties);
    RunSettings given = workload.load().under(properties);
    long seed = WorkloadProperties.seed(given, workload);
    AdaptiveSettings adaptive = WorkloadProperties.adaptive(workload);
    int pool = given.pool() != null ? given.pool() : SqlProtocolBuilder.DEFAULT_POOL_SIZE;
    int nodes = Math.max(1, given.urls().size());
    int held = nodes * (pool + SqlClientOptions.defaultQueueCapacity(pool));
    adaptive = adaptive.withLanes(Math.min(adaptive.lanes(), held));
    FusilladeRun.settings(RunSettings.NONE.withWorkload(given.workload()).withSeed(seed));

    QueryMix mix = new QueryMix(new WorkloadData(workload, seed));
    setUp(
            FusilladeAdaptive.follow(adaptive)
                .population("adaptive", exec(sqlCall(session -> mix.next()))))
        .protocols(SqlTarget.prepare(given, workload, seed));
  }
}
