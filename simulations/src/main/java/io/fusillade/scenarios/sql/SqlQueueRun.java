package io.fusillade.scenarios.sql;

import static io.fusillade.gatling.sql.SqlDsl.sqlCall;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.sql.SqlDsl;
import io.fusillade.record.RunSettings;
import io.fusillade.scenarios.InjectedChains;
import io.fusillade.scenarios.WorkloadProperties;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadData;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.ArrayList;
import java.util.List;

/**
 * Picostress's {@code queue} mode for any workload file: the workload's queries, in the seeded,
 * shuffled order of their counts, split between N virtual users that start together; each runs its
 * share once. Settings ({@link RunSettings}): {@code -Dfusillade.workload=FILE -Dfusillade.users=10
 * -Dfusillade.seed=S} and the target properties of {@link SqlTarget}.
 */
public class SqlQueueRun extends Simulation {
  private static final String SHARE = "fusillade.queueShare";

  {
    RunSettings properties = RunSettings.fromSystemProperties();
    Workload workload = WorkloadProperties.workload(properties);
    // The file's load section under the properties: the command line overrides the file.
    RunSettings given = workload.load().under(properties);
    long seed = WorkloadProperties.seed(given, workload);
    int users = given.users() != null ? given.users() : 10;
    FusilladeRun.settings(
        RunSettings.NONE
            .withWorkload(given.workload())
            .withSeed(seed)
            .withMode(RunSettings.Mode.QUEUE)
            .withUsers(users));
    WorkloadProperties.declareChecks(given, workload);
    WorkloadData data = new WorkloadData(workload, seed);

    ScenarioBuilder queue =
        scenario("queue")
            .exec(
                session -> {
                  int user = (int) ((session.userId() - 1) % users);
                  return session.set(SHARE, new QueueShare(data, user, users));
                })
            .asLongAs(session -> session.<QueueShare>get(SHARE).hasNext())
            .on(sqlCall(session -> session.<QueueShare>get(SHARE).next()));

    List<PopulationBuilder> populations = new ArrayList<>();
    populations.add(queue.injectOpen(atOnceUsers(users)));
    // the injected kinds at a rate of their own: their length is their for:, a queue's is unknown
    populations.addAll(
        InjectedChains.of(workload.injected(), seed, SqlDsl::injected)
            .populations(workload.file(), null, rate -> rate));
    setUp(populations).protocols(SqlTarget.prepare(given, workload, seed));
  }
}
