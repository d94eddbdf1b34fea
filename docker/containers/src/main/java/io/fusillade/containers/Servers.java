package io.fusillade.containers;

import io.fusillade.local.KafkaServer;
import io.fusillade.local.LocalKafka;
import io.fusillade.local.LocalOpenSearch;
import io.fusillade.local.LocalPostgres;
import io.fusillade.local.LocalPostgresCluster;
import io.fusillade.local.PostgresServer;
import io.fusillade.local.SearchServer;
import java.util.Locale;

/**
 * Starts the servers a test or a simulation needs, embedded or in containers as one setting says:
 * {@code -Dfusillade.servers=embedded} (the default: no Docker needed) or {@code containers}
 * (Testcontainers; needs a Docker engine). The caller gets the same interface either way and closes
 * what it got:
 *
 * <pre>{@code
 * try (PostgresServer db = Servers.postgres()) {
 *   run(db.jdbcUrl(), db.user());
 * }
 * }</pre>
 *
 * <p>The choice lives here, in the module that knows both kinds, so that the embedded modules never
 * pull Testcontainers in for those who do not want it.
 */
public final class Servers {
  /** The system property that chooses: {@code embedded} (default) or {@code containers}. */
  public static final String PROPERTY = "fusillade.servers";

  /** Where the servers run. */
  public enum Kind {
    /** In this machine's processes, from Maven Central (no Docker). */
    EMBEDDED,
    /** In Docker containers, through Testcontainers. */
    CONTAINERS
  }

  private Servers() {}

  /** The kind {@code -Dfusillade.servers} asks for. */
  public static Kind kind() {
    return kind(System.getProperty(PROPERTY));
  }

  static Kind kind(String value) {
    if (value == null || value.isBlank()) {
      return Kind.EMBEDDED;
    }
    try {
      return Kind.valueOf(value.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new ServersException(
          "-D"
              + PROPERTY
              + "="
              + value
              + " is not a kind of servers: use embedded (the default) or containers");
    }
  }

  /** A PostgreSQL server without replicas. */
  public static PostgresServer postgres() {
    return postgres(kind(), 0);
  }

  /**
   * A PostgreSQL primary with {@code replicas} streaming replicas (reads only): embedded, a {@link
   * LocalPostgresCluster}; in containers, replicas cloned with {@code pg_basebackup -R}.
   */
  public static PostgresServer postgres(int replicas) {
    return postgres(kind(), replicas);
  }

  static PostgresServer postgres(Kind kind, int replicas) {
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must be 0 or more: " + replicas);
    }
    if (kind == Kind.EMBEDDED) {
      return replicas == 0 ? LocalPostgres.start() : LocalPostgresCluster.start(replicas);
    }
    requireDocker();
    return ContainerPostgres.builder().replicas(replicas).start();
  }

  /** A Kafka cluster in KRaft mode of {@code brokers} brokers (1 or 3, typically). */
  public static KafkaServer kafka(int brokers) {
    return kafka(kind(), brokers);
  }

  static KafkaServer kafka(Kind kind, int brokers) {
    if (brokers < 1) {
      throw new IllegalArgumentException("a Kafka cluster needs at least one broker: " + brokers);
    }
    if (kind == Kind.EMBEDDED) {
      return LocalKafka.builder().brokers(brokers).start();
    }
    requireDocker();
    return ContainerKafka.builder().brokers(brokers).start();
  }

  /** An OpenSearch node (embedded, or the OpenSearch image in a container). */
  public static SearchServer openSearch() {
    return openSearch(kind());
  }

  static SearchServer openSearch(Kind kind) {
    if (kind == Kind.EMBEDDED) {
      return LocalOpenSearch.start();
    }
    requireDocker();
    return ContainerSearch.openSearch().start();
  }

  private static void requireDocker() {
    if (!Docker.available()) {
      throw new ServersException(Docker.UNAVAILABLE);
    }
  }
}
