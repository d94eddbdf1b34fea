package io.fusillade.quickstart;

import static io.fusillade.gatling.kafka.KafkaDsl.kafka;
import static io.fusillade.gatling.kafka.KafkaDsl.topic;
import static io.fusillade.gatling.logs.LogsDsl.logs;
import static io.fusillade.gatling.sql.SqlDsl.sql;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.containers.Servers;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.gatling.sql.SqlProtocolBuilder;
import io.fusillade.local.KafkaServer;
import io.fusillade.local.LocalPostgres;
import io.fusillade.local.PostgresServer;
import io.fusillade.local.SearchServer;
import io.fusillade.logs.IndexSpec;
import io.fusillade.logs.LogProfile;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ProtocolBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The quickstart. SQL phase: starts an embedded PostgreSQL, creates and fills a small table, then
 * looks rows up by primary key at a constant arrival rate (200 new users per second, one query
 * each, for 30 seconds). Ingest phase, after it: 20,000 seeded web-log documents in bulks of 5,000
 * from two users into an embedded OpenSearch, with time-to-searchable measured. Topic phase, last:
 * 1 KiB messages at 200/s for 10 seconds into an embedded Kafka, read by a group of two consumers,
 * with end-to-end latency and delivery verified. Leaves Gatling's HTML report, Fusillade's report
 * and its run record.
 *
 * <p>Settings: {@code -Drate=200 -Dduration=30s -Drows=10000 -Dseed=42 -Dpool=8}, {@code
 * -Dphases=sql,logs,topics} (leave one out to skip it); {@code -Dsql.url=jdbc:postgresql://...}
 * (with {@code -Dsql.user}, and the password in the environment variable {@code
 * FUSILLADE_SQL_PASSWORD}) runs it against your own PostgreSQL instead; {@code
 * -Dfusillade.servers=containers} starts its servers in Docker containers instead of embedded ones.
 */
public class QuickstartSimulation extends Simulation {
  private final int rate = SimulationProperties.integer("rate", 200);
  private final Duration duration =
      SimulationProperties.duration("duration", Duration.ofSeconds(30));
  private final int rows = SimulationProperties.integer("rows", 10_000);
  private final long seed = SimulationProperties.longValue("seed", 42);
  private final int pool = SimulationProperties.integer("pool", 8);
  private final String externalUrl = SimulationProperties.string("sql.url", null);

  private final List<String> phases =
      List.of(SimulationProperties.string("phases", "sql,logs,topics").split(","));
  // Closed at the end of the run after the protocols' clients, which are registered later
  // (closeAtEnd is last in, first out): consumers drain while the broker still runs.
  // Embedded servers, or containers with -Dfusillade.servers=containers (and a Docker engine).
  private final PostgresServer postgres =
      externalUrl == null ? FusilladeRun.closeAtEnd(Servers.postgres()) : null;
  private final SearchServer openSearch =
      phases.contains("logs") ? FusilladeRun.closeAtEnd(Servers.openSearch()) : null;
  private final KafkaServer kafkaBroker =
      phases.contains("topics") ? FusilladeRun.closeAtEnd(Servers.kafka(1)) : null;

  private final SqlProtocolBuilder database =
      postgres != null
          ? sql.url(postgres.jdbcUrl()).user(postgres.user()).poolSize(pool)
          : sql.url(externalUrl)
              .user(SimulationProperties.string("sql.user", "postgres"))
              .password(System.getenv("FUSILLADE_SQL_PASSWORD"))
              .poolSize(pool);

  /** Uniform ids over the table, the same sequence for the same seed. */
  private final Iterator<Map<String, Object>> ids =
      Stream.generate(new SplittableRandom(seed)::split)
          .map(random -> Map.<String, Object>of("id", 1 + random.nextInt(rows)))
          .iterator();

  private final ScenarioBuilder lookups =
      scenario("quickstart lookups")
          .feed(ids)
          .exec(
              sql("account by id")
                  .query("select id, owner, balance from accounts where id = ?")
                  .params("#{id}"));

  {
    if (postgres != null) {
      createTable(postgres);
      // The server's CPU and memory beside the injector's, in the run record.
      if (postgres instanceof LocalPostgres local) {
        local.pid().ifPresent(pid -> FusilladeRun.watchProcess(pid, "postgres"));
      }
    }
    // Service-level checks: `fusillade report` turns each into a JUnit test case.
    FusilladeRun.checks(
        "errors < 1%", "rate >= 99% of target for \"account by id\"", "injector not saturated");
    FusilladeRun.parameters(
        Map.of(
            "rows", rows,
            "seed", seed,
            "pool", pool,
            "target",
                postgres != null ? Servers.kind().name().toLowerCase(Locale.ROOT) : "external"));
    PopulationBuilder phase = lookups.injectOpen(constantUsersPerSec(rate).during(duration));
    List<ProtocolBuilder> protocols = new ArrayList<>(List.of(database));
    if (openSearch != null) {
      protocols.add(
          logs.urls(openSearch.baseUrl())
              .profile(LogProfile.WEB)
              .seed(seed)
              .recreateIndex(IndexSpec.forProfile("quickstart-logs", LogProfile.WEB))
              .timeToSearchable());
      ScenarioBuilder ingest =
          scenario("quickstart ingest")
              .repeat(2)
              .on(exec(logs("bulk of 5000 web logs").bulk(5_000)));
      phase = phase.andThen(ingest.injectOpen(atOnceUsers(2)));
    }
    if (kafkaBroker != null) {
      protocols.add(
          kafka
              .bootstrapServers(kafkaBroker.bootstrapServers())
              .seed(seed)
              .topic(topic("quickstart-events").partitions(2).consumers(2)));
      ScenarioBuilder events =
          scenario("quickstart topic")
              .exec(kafka("write event").send("quickstart-events").valueSize(1024));
      phase = phase.andThen(events.injectOpen(constantUsersPerSec(200).during(10)));
    }
    setUp(phase).protocols(protocols);
  }

  private void createTable(PostgresServer server) {
    try (Connection connection =
            DriverManager.getConnection(server.jdbcUrl(), server.user(), server.password());
        Statement statement = connection.createStatement()) {
      statement.execute(
          "create table accounts (id integer primary key, owner text not null,"
              + " balance numeric(12,2) not null, updated_at timestamptz not null)");
      statement.execute(
          "insert into accounts select i, 'owner-' || i, (i % 10000) / 100.0, now()"
              + " from generate_series(1, "
              + rows
              + ") as i");
      statement.execute("analyze accounts");
    } catch (SQLException e) {
      throw new IllegalStateException(
          "could not create the quickstart table: " + e.getMessage(), e);
    }
  }
}
