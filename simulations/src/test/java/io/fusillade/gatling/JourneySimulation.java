package io.fusillade.gatling;

import static io.fusillade.gatling.sql.SqlDsl.column;
import static io.fusillade.gatling.sql.SqlDsl.rowCount;
import static io.fusillade.gatling.sql.SqlDsl.sql;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.local.LocalPostgres;
import io.fusillade.sql.SqlEngine;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * A two-step user journey for {@link JourneyRunTest}, on both engines: each user inserts an order
 * {@code returning id}, saves the id ({@code column("id").saveAs("orderId")}) and reads its order
 * back by {@code #{orderId}}. The request names are EL ({@code "#{engine} insert"}), so each
 * engine's requests are counted apart. A third step reads an attribute no check saved: KO.
 */
public class JourneySimulation extends Simulation {
  static final int RATE = 20;
  static final Duration DURATION = Duration.ofSeconds(3);

  private final LocalPostgres postgres = LocalPostgres.start();

  {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("create table orders (id serial primary key, customer bigint not null)");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    FusilladeRun.parameters(Map.of("rate", RATE));
    var db = sql.url(postgres.jdbcUrl()).user(postgres.user()).poolSize(2);
    setUp(
        journey(SqlEngine.JDBC)
            .injectOpen(constantUsersPerSec(RATE).during(DURATION))
            .protocols(db),
        journey(SqlEngine.NATIVE)
            .injectOpen(constantUsersPerSec(RATE).during(DURATION))
            .protocols(db.engine(SqlEngine.NATIVE)));
  }

  private static ScenarioBuilder journey(SqlEngine engine) {
    String name = engine.name().toLowerCase(Locale.ROOT);
    return scenario("journey " + name)
        .exec(session -> session.set("engine", name).set("customer", session.userId()))
        .exec(
            sql("#{engine} insert")
                .query("insert into orders(customer) values (?) returning id")
                .params("#{customer}")
                .check(column("id").saveAs("orderId")))
        .exec(
            sql("#{engine} select")
                .query("select customer from orders where id = ? and customer = ?")
                .params("#{orderId}", "#{customer}")
                .check(rowCount().is(1)))
        .exec(sql(session -> "unsaved").query("select ?").params("#{nothing}"));
  }

  @Override
  public void after() {
    FusilladeRun.closeAtEnd(postgres);
  }
}
