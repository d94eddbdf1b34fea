package io.fusillade.bench;

import static io.fusillade.gatling.sql.SqlDsl.sql;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.SimulationProperties;
import io.fusillade.sql.SqlEngine;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * For {@code simulations/bench/sql-vs-pgbench.sh}: pgbench's select-only transaction, a prepared
 * point select on {@code pgbench_accounts}, from N closed-model users looping for a duration, with
 * the engine of {@code -Dengine} ({@code native}, the default, or {@code jdbc}).
 */
public class PointSelectSimulation extends Simulation {
  {
    int clients = SimulationProperties.integer("clients", 8);
    int accounts = 100_000 * SimulationProperties.integer("scale", 10);
    Duration duration = SimulationProperties.duration("duration", Duration.ofSeconds(30));
    setUp(
            scenario("point selects")
                // exitASAP off: the deadline is checked once an iteration, not before every action.
                .during(duration, false)
                .on(
                    sql("point")
                        .query("select abalance from pgbench_accounts where aid = ?")
                        .param(session -> 1 + ThreadLocalRandom.current().nextInt(accounts)))
                .injectOpen(atOnceUsers(clients)))
        .protocols(
            sql.url(SimulationProperties.string("sql.url", null))
                .engine(SqlEngine.of(SimulationProperties.string("engine", "native")))
                .poolSize(SimulationProperties.integer("pool", clients))
                .queueCapacity(clients * 4));
  }
}
