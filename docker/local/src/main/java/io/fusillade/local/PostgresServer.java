package io.fusillade.local;

import java.util.List;

/**
 * A PostgreSQL server for tests and quick runs, whoever started it: the embedded one ({@code
 * LocalPostgres}, the default) or a container ({@code ContainerPostgres} in {@code
 * fusillade-containers}). Code that only needs to connect takes this type, so the same test or
 * simulation runs against either (see {@code Servers} and {@code -Dfusillade.servers}).
 */
public interface PostgresServer extends AutoCloseable {

  /**
   * The JDBC URL of the primary's database, e.g. {@code jdbc:postgresql://127.0.0.1:5432/postgres}.
   */
  String jdbcUrl();

  /** The user to connect as. */
  String user();

  /** The user's password, empty when the server trusts its connections (never null). */
  String password();

  /**
   * JDBC URLs of the streaming replicas, in order; empty when the server has none. A replica
   * answers reads only.
   */
  default List<String> replicaJdbcUrls() {
    return List.of();
  }

  /** Stops the server and removes what it wrote; never throws for a server already stopped. */
  @Override
  void close();
}
