package io.fusillade.gatling;

import static io.fusillade.gatling.sql.SqlDsl.sql;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.local.LocalPostgres;
import io.gatling.javaapi.core.Simulation;

/**
 * A simulation for {@link RunVerdictTest} that completes but cannot pass its check: no query
 * answers in a nanosecond. It lasts one second, or {@code -Dverdict.seconds}.
 */
public class FailingCheckSimulation extends Simulation {
  /** The check that fails. */
  static final String CHECK = "p99 < 0.001ms";

  private final LocalPostgres postgres = FusilladeRun.closeAtEnd(LocalPostgres.start());

  {
    FusilladeRun.checks(CHECK);
    var db = sql.url(postgres.jdbcUrl()).user(postgres.user()).poolSize(2);
    setUp(
            scenario("lookups")
                .exec(sql("select one").query("select 1"))
                .injectOpen(
                    constantUsersPerSec(20).during(Integer.getInteger("verdict.seconds", 1))))
        .protocols(db);
  }
}
