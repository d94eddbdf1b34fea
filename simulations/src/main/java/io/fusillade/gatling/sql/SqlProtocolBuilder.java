package io.fusillade.gatling.sql;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.sql.SqlClientOptions;
import io.gatling.core.protocol.Protocol;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;

/**
 * Configures the SQL protocol. Immutable: every method returns a new builder.
 *
 * <pre>{@code
 * SqlProtocolBuilder db = sql.url("jdbc:postgresql://localhost:5432/app").user("app")
 *     .password(System.getenv("DB_PASSWORD")).poolSize(16);
 * }</pre>
 */
public final class SqlProtocolBuilder implements ProtocolBuilder {
  private final String url;
  private final String user;
  private final String password;
  private final int poolSize;
  private final Integer queueCapacity;
  private final Duration connectionTimeout;

  SqlProtocolBuilder(
      String url,
      String user,
      String password,
      int poolSize,
      Integer queueCapacity,
      Duration connectionTimeout) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.poolSize = poolSize;
    this.queueCapacity = queueCapacity;
    this.connectionTimeout = connectionTimeout;
  }

  /** The database's JDBC URL. Any driver on the classpath works; PostgreSQL's is included. */
  public SqlProtocolBuilder url(String url) {
    FusilladeRun.noteSimulation();
    return new SqlProtocolBuilder(url, user, password, poolSize, queueCapacity, connectionTimeout);
  }

  public SqlProtocolBuilder user(String user) {
    return new SqlProtocolBuilder(url, user, password, poolSize, queueCapacity, connectionTimeout);
  }

  /** The password; it is never logged or written to a report. */
  public SqlProtocolBuilder password(String password) {
    return new SqlProtocolBuilder(url, user, password, poolSize, queueCapacity, connectionTimeout);
  }

  /** Connections, and threads running statements: the most statements in flight at once. */
  public SqlProtocolBuilder poolSize(int poolSize) {
    return new SqlProtocolBuilder(url, user, password, poolSize, queueCapacity, connectionTimeout);
  }

  /**
   * Statements that may wait for a free connection (default 128 per connection); beyond that a
   * request fails at once as "injector queue full".
   */
  public SqlProtocolBuilder queueCapacity(int capacity) {
    return new SqlProtocolBuilder(url, user, password, poolSize, capacity, connectionTimeout);
  }

  /** How long a statement may wait for a connection before it fails (default 30 s). */
  public SqlProtocolBuilder connectionTimeout(Duration timeout) {
    return new SqlProtocolBuilder(url, user, password, poolSize, queueCapacity, timeout);
  }

  @Override
  public Protocol protocol() {
    if (url == null) {
      throw new IllegalStateException("The SQL protocol needs a JDBC URL: sql.url(\"jdbc:...\")");
    }
    SqlClientOptions defaults = SqlClientOptions.of(url, user, password, poolSize);
    return new SqlProtocol(
        new SqlClientOptions(
            url,
            user,
            password,
            poolSize,
            queueCapacity != null ? queueCapacity : defaults.queueCapacity(),
            connectionTimeout));
  }
}
