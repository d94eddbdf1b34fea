package io.fusillade.gatling;

import static io.fusillade.gatling.sql.SqlDsl.sql;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Simulation;

/**
 * {@code select 1} at {@code -Dlong.rate} per second (default 50) for {@code -Dlong.seconds}
 * (default 60) on the database of {@code -Dlong.url}, which the test starts: for {@link
 * RecordWriteFailureRunTest}, whose forked JVM may not write big files (and neither may its
 * children, so the server is not one of them).
 */
public class LongSelectSimulation extends Simulation {
  {
    var db = sql.url(System.getProperty("long.url")).poolSize(2);
    setUp(
            scenario("selects")
                .exec(sql("select one").query("select 1"))
                .injectOpen(
                    constantUsersPerSec(Integer.getInteger("long.rate", 50))
                        .during(Integer.getInteger("long.seconds", 60))))
        .protocols(db);
  }
}
