package io.fusillade.scenarios.sql;

import static io.fusillade.gatling.sql.SqlDsl.sqlCall;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.FusilladeException;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.InjectorShare;
import io.fusillade.gatling.sql.SqlDsl;
import io.fusillade.plan.RunPlan;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * Picostress's {@code queue} mode for any workload file: the workload's queries, in the seeded,
 * shuffled order of their counts, split between N virtual users that start together; each runs its
 * share once. One of several injectors ({@link InjectorShare}) runs the users whose index is its
 * own modulo their count: together they send the single injector's queries. Settings ({@link
 * RunSettings}): {@code -Dfusillade.workload=FILE -Dfusillade.users=10 -Dfusillade.seed=S} and the
 * target properties of {@link SqlTarget}.
 */
public class SqlQueueRun extends Simulation {
  private static final String SHARE = "fusillade.queueShare";

  {
    RunSettings properties = RunPlan.current().settings();
    Workload workload = WorkloadProperties.workload(properties);
    // The file's load section under the properties: the command line overrides the file.
    RunSettings given = workload.load().under(properties);
    long seed = WorkloadProperties.seed(given, workload);
    int users = given.users() != null ? given.users() : 10;
    // One of several injectors: the users whose index is its own modulo their count, each with
    // the share of the queue it has in a single injector's run.
    InjectorShare share = InjectorShare.current();
    int[] mine =
        IntStream.range(0, users).filter(u -> u % share.count() == share.index()).toArray();
    if (mine.length == 0) {
      throw new FusilladeException(
          "queue mode with "
              + users
              + " users and "
              + share.count()
              + " injectors: injector "
              + share.index()
              + " has no user; give at least as many users as injectors");
    }
    FusilladeRun.settings(
        RunSettings.NONE
            .withWorkload(given.workload())
            .withSeed(seed)
            .withMode(RunSettings.Mode.QUEUE)
            .withUsers(mine.length));
    WorkloadProperties.declareChecks(given, workload);
    WorkloadData data = new WorkloadData(workload, seed);

    // Users are counted here, not by Gatling's user ids, which the injected kinds' populations
    // take from too.
    AtomicInteger started = new AtomicInteger();
    ScenarioBuilder queue =
        scenario("queue")
            .exec(
                session -> {
                  int user = mine[started.getAndIncrement() % mine.length];
                  return session.set(SHARE, new QueueShare(data, user, users));
                })
            .asLongAs(session -> session.<QueueShare>get(SHARE).hasNext())
            .on(sqlCall(session -> session.<QueueShare>get(SHARE).next()));

    List<PopulationBuilder> populations = new ArrayList<>();
    populations.add(queue.injectOpen(atOnceUsers(mine.length)));
    // the injected kinds at a rate of their own: their length is their for:, a queue's is unknown
    populations.addAll(
        InjectedChains.of(workload.injected(), seed, SqlDsl::injected, share)
            .populations(workload.file(), null));
    var protocol = SqlTarget.prepare(given, workload, seed);
    WorkloadProperties.awaitCommonStart(
        share, SqlTarget.clockOffset(given, workload, share).orElse(null));
    setUp(populations).protocols(protocol);
  }
}
