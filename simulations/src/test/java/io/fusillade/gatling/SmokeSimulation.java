package io.fusillade.gatling;

import static io.fusillade.gatling.sql.SqlDsl.sql;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.local.LocalPostgres;
import io.fusillade.sql.SqlEngine;
import io.gatling.javaapi.core.Simulation;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A short simulation for {@link GatlingRunTest}: good lookups (in a Gatling group, on the native
 * engine), a statement on a missing table and a request whose parameter is missing from the session
 * (on the JDBC engine), all on one embedded PostgreSQL.
 */
public class SmokeSimulation extends Simulation {
  static final int RATE = 40;
  static final int FAILING_RATE = 5;
  static final Duration DURATION = Duration.ofSeconds(3);

  private final LocalPostgres postgres = LocalPostgres.start();

  {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("create table t (id int primary key, v text)");
      s.execute("insert into t select i, 'v' || i from generate_series(1, 100) i");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    var db = sql.url(postgres.jdbcUrl()).user(postgres.user()).poolSize(4);
    var good =
        scenario("good")
            .exec(session -> session.set("id", 1 + (int) (session.userId() % 100)))
            .group("lookups")
            .on(exec(sql("by id").query("select v from t where id = ?").params("#{id}")));
    var broken =
        scenario("broken")
            .exec(sql("missing table").query("select * from no_such_table"))
            .exec(sql("missing attribute").query("select ?").params("#{nope}"));
    setUp(
            // The lookups on the native engine: their responses reach Gatling's stats engine in
            // per-event-loop batches; the JDBC engine's straight from its worker threads.
            good.injectOpen(constantUsersPerSec(RATE).during(DURATION))
                .protocols(db.engine(SqlEngine.NATIVE)),
            broken.injectOpen(constantUsersPerSec(FAILING_RATE).during(DURATION)))
        .protocols(db);
  }

  @Override
  public void after() {
    FusilladeRun.closeAtEnd(postgres);
  }
}
