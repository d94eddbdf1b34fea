package io.fusillade.sql;

import static io.fusillade.gatling.sql.SqlDsl.rowCount;
import static io.fusillade.gatling.sql.SqlDsl.sql;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.gatling.sql.SqlBalance;
import io.fusillade.local.LocalPostgres;
import io.gatling.javaapi.core.Simulation;
import java.util.List;
import java.util.stream.Stream;

/** For {@link ClusterRunTest}: three embedded nodes, weighted 2:1:1, with checks. */
public class ClusterSimulation extends Simulation {
  static final int RATE = 100;
  static final int SECONDS = 4;

  private final List<LocalPostgres> nodes = Stream.generate(LocalPostgres::start).limit(3).toList();

  {
    setUp(
            scenario("cluster reads")
                .exec(sql("one row").query("select 1 as one").check(rowCount().is(1)))
                .injectOpen(constantUsersPerSec(RATE).during(SECONDS)))
        .protocols(
            sql.urls(nodes.stream().map(LocalPostgres::jdbcUrl).toList())
                .user(LocalPostgres.USER)
                .poolSize(2)
                .engine(SqlEngine.of(SimulationProperties.string("engine", "jdbc")))
                .balance(SqlBalance.weighted(2, 1, 1)));
  }

  @Override
  public void after() {
    nodes.forEach(FusilladeRun::closeAtEnd);
  }
}
