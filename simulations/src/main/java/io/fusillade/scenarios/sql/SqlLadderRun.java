package io.fusillade.scenarios.sql;

import static io.fusillade.gatling.sql.SqlDsl.sqlCall;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.FusilladeSpan;
import io.fusillade.gatling.sql.SqlCall;
import io.fusillade.gen.RowGenerator;
import io.fusillade.plan.PlanProperties;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.record.Untimed;
import io.fusillade.scenarios.WorkloadProperties;
import io.fusillade.workload.Query;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadData;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.CoreDsl;
import io.gatling.javaapi.core.Simulation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One level of a concurrency ladder ({@code fusillade ladder}): N sessions ({@code
 * -Dfusillade.users}) start together and each runs the workload's whole query set once, in the
 * file's order, each query with values from that session's own seeded stream, after one untimed
 * {@code select 1} ({@value #WARM_UP}) that opens its connection. Each query is timed under its
 * name, and the whole set under {@value #SET} ({@link FusilladeSpan}): the analytical team's "time
 * to run all queries at this level". Each query's timeout is 30 minutes unless told, and a set may
 * have one ({@link LadderTimeouts}). The run records {@code level} (N) and {@code repeat} ({@code
 * -Dfusillade.ladder.repeat}) in {@code run.json}, so {@code compare} compares two ladders level by
 * level.
 */
public class SqlLadderRun extends Simulation {
  /** The request name of a session's whole query set. */
  public static final String SET = "query set";

  /**
   * The request name of each session's untimed first statement, {@code select 1}: never recorded
   * ({@link Untimed}), so in no table and no check.
   */
  public static final String WARM_UP = Untimed.name("warm-up");

  /** The system property of the repeat's number, recorded as {@code repeat}. */
  public static final String REPEAT_PROPERTY = PlanProperties.LADDER_REPEAT;

  {
    RunSettings properties = RunPlan.current().settings();
    Workload workload = WorkloadProperties.workload(properties);
    RunSettings given = workload.load().under(properties);
    long seed = WorkloadProperties.seed(given, workload);
    int users = given.users() != null ? given.users() : 1;
    FusilladeRun.settings(
        RunSettings.NONE.withWorkload(given.workload()).withSeed(seed).withUsers(users));
    Map<String, Object> ladder = new LinkedHashMap<>();
    ladder.put("level", users);
    RunPlan.Ladder plan = RunPlan.current().ladder();
    ladder.put("repeat", plan == null ? 1 : plan.repeat());
    FusilladeRun.parameters(ladder);
    WorkloadProperties.declareChecks(given, workload);

    WorkloadData data = new WorkloadData(workload, seed);
    List<Query> queries = workload.queries();
    LadderTimeouts timeouts = LadderTimeouts.of(RunPlan.current());
    // Untimed, before the set: the session's connection and the injector's first-call costs (a
    // fresh JVM loads and compiles its request path) are not the first query's.
    ChainBuilder set =
        CoreDsl.exec(sqlCall(session -> new SqlCall(WARM_UP, "select 1", List.of())))
            .exec(FusilladeSpan.begin(SET))
            .exec(timeouts::start);
    for (int q = 0; q < queries.size(); q++) {
      int index = q;
      Query query = queries.get(q);
      set =
          set.doIf(timeouts::hasTime)
              .then(
                  CoreDsl.exec(
                      sqlCall(
                          session -> {
                            RowGenerator params = session.get(streamKey(index));
                            return timeouts.bound(session, QueryCalls.of(query, params.next()));
                          })));
    }
    set = set.exec(FusilladeSpan.end(SET));
    var sessions =
        scenario("ladder")
            .exec(
                session -> {
                  int user = (int) ((session.userId() - 1) % users);
                  for (int q = 0; q < queries.size(); q++) {
                    session = session.set(streamKey(q), data.params(q, user, users));
                  }
                  return session;
                })
            .exec(set);
    setUp(sessions.injectOpen(atOnceUsers(users)))
        .protocols(SqlTarget.prepare(given, workload, seed, timeouts.requestTimeout()));
  }

  private static String streamKey(int query) {
    return "fusillade.ladder.params." + query;
  }
}
