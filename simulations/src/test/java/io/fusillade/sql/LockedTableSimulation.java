package io.fusillade.sql;

import static io.fusillade.gatling.sql.SqlDsl.sql;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.local.LocalPostgres;
import io.gatling.javaapi.core.Simulation;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * For {@link CoordinatedOmissionTest}: point reads at a constant arrival rate while another session
 * holds an exclusive lock on the table for a while in the middle of the run.
 */
public class LockedTableSimulation extends Simulation {
  static final int RATE = 500;
  static final Duration DURATION = Duration.ofSeconds(10);
  static final Duration LOCK_AT = Duration.ofSeconds(5);
  static final Duration LOCK_FOR = Duration.ofSeconds(2);

  private final LocalPostgres postgres = LocalPostgres.start();
  private final int rate = SimulationProperties.integer("rate", RATE);

  {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("create table t (id int primary key, v text)");
      s.execute("insert into t select i, 'v' || i from generate_series(1, 1000) i");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    Iterator<Map<String, Object>> ids =
        Stream.generate(new SplittableRandom(1)::split)
            .map(r -> Map.<String, Object>of("id", 1 + r.nextInt(1000)))
            .iterator();
    setUp(
            scenario("reads")
                .feed(ids)
                .exec(sql("read").query("select v from t where id = ?").params("#{id}"))
                .injectOpen(constantUsersPerSec(rate).during(DURATION)))
        .protocols(
            sql.url(postgres.jdbcUrl())
                .user(postgres.user())
                .poolSize(8)
                .queueCapacity(4096)
                .engine(SqlEngine.of(SimulationProperties.string("engine", "jdbc"))));
  }

  @Override
  public void before() {
    Thread locker =
        new Thread(
            () -> {
              try (Connection c = postgres.connect();
                  Statement s = c.createStatement()) {
                Thread.sleep(LOCK_AT.toMillis());
                c.setAutoCommit(false);
                s.execute("lock table t in access exclusive mode");
                Thread.sleep(LOCK_FOR.toMillis());
                c.commit();
              } catch (SQLException | InterruptedException e) {
                throw new IllegalStateException(e);
              }
            },
            "table-locker");
    locker.setDaemon(true);
    locker.start();
  }

  @Override
  public void after() {
    FusilladeRun.closeAtEnd(postgres);
  }
}
