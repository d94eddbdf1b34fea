package io.fusillade.gatling;

import static io.fusillade.gatling.sql.SqlDsl.sql;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.local.LocalPostgres;
import io.gatling.javaapi.core.Simulation;

/**
 * A simulation for {@link RunVerdictTest} that crashes Gatling after its requests were answered:
 * its protocol opened, so only Gatling knows the run crashed.
 */
public class CrashingSimulation extends Simulation {
  /** The crash's message. */
  static final String MESSAGE = "crashed on purpose";

  private final LocalPostgres postgres = FusilladeRun.closeAtEnd(LocalPostgres.start());

  {
    var db = sql.url(postgres.jdbcUrl()).user(postgres.user()).poolSize(1);
    setUp(
            scenario("crash")
                .exec(sql("select one").query("select 1"))
                .crashLoadGenerator(MESSAGE)
                .injectOpen(atOnceUsers(1)))
        .protocols(db);
  }
}
