package io.fusillade.containers;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The servers a JUnit 5 test class needs, started once before its tests and stopped after them,
 * embedded or in containers as {@code -Dfusillade.servers} says (see {@link Servers}):
 *
 * <pre>{@code
 * @FusilladeServers(postgres = true, kafkaBrokers = 3)
 * class CheckoutLoadTest {
 *   @Test
 *   void holdsItsRate(PostgresServer db, KafkaServer kafka) { ... }
 * }
 * }</pre>
 *
 * <p>Test methods, constructors and {@code @BeforeAll} methods receive them as parameters of the
 * interface types ({@link io.fusillade.local.PostgresServer}, {@link
 * io.fusillade.local.KafkaServer}, {@link io.fusillade.local.SearchServer}). While the class runs,
 * their addresses are also the system properties below, which a Gatling simulation started in the
 * same JVM reads (pass them on with {@code -D} to one in another JVM). No password is ever among
 * them: the servers trust their connections.
 *
 * <p>With {@code -Dfusillade.servers=containers} and no Docker engine, the class's tests are
 * skipped with that reason, as Testcontainers' {@code disabledWithoutDocker} does.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(FusilladeServersExtension.class)
public @interface FusilladeServers {
  /** The primary's JDBC URL. */
  String POSTGRES_URL = "fusillade.postgres.url";

  /** The PostgreSQL user. */
  String POSTGRES_USER = "fusillade.postgres.user";

  /** The replicas' JDBC URLs, comma-separated (absent without replicas). */
  String POSTGRES_REPLICA_URLS = "fusillade.postgres.replicaUrls";

  /** The Kafka bootstrap list. */
  String KAFKA_BOOTSTRAP = "fusillade.kafka.bootstrap";

  /** The search server's base URL. */
  String SEARCH_URL = "fusillade.search.url";

  /**
   * The primary's JDBC URL again, under the name the project's SQL simulations already read ({@code
   * QuickstartSimulation}, {@code PointSelectSimulation}: {@code -Dsql.url}), so they run against
   * the class's server unchanged.
   */
  String SIMULATION_SQL_URL = "sql.url";

  /** The PostgreSQL user under the name the SQL simulations read ({@code -Dsql.user}). */
  String SIMULATION_SQL_USER = "sql.user";

  /**
   * The search server's base URL under the name the logs simulations read ({@code -Dlogs.url},
   * {@code LogChecksSimulation}).
   */
  String SIMULATION_LOGS_URL = "logs.url";

  /** Start a PostgreSQL server. */
  boolean postgres() default false;

  /** Streaming replicas of it (embedded: a {@code LocalPostgresCluster}). */
  int postgresReplicas() default 0;

  /** Start a Kafka cluster of this many brokers (0: none). */
  int kafkaBrokers() default 0;

  /** Start an OpenSearch node. */
  boolean openSearch() default false;
}
