package io.fusillade.gatling.sql;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.sql.SqlClientOptions;
import io.gatling.core.protocol.Protocol;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Configures the SQL protocol. Immutable: every method returns a new builder.
 *
 * <pre>{@code
 * SqlProtocolBuilder db = sql
 *     .urls("jdbc:postgresql://db1:5432/app", "jdbc:postgresql://db2:5432/app")
 *     .user("app").password(System.getenv("DB_PASSWORD"))
 *     .poolSize(16)                            // per node
 *     .balance(SqlBalance.roundRobin())
 *     .failover(Duration.ofSeconds(5));
 * }</pre>
 */
public final class SqlProtocolBuilder implements ProtocolBuilder {
  private final List<String> urls;
  private final String user;
  private final String password;
  private final int poolSize;
  private final Integer queueCapacity;
  private final Duration connectionTimeout;
  private final SqlBalance balance;
  private final Duration failoverBackoff;
  private final Duration requestTimeout;

  SqlProtocolBuilder(
      List<String> urls,
      String user,
      String password,
      int poolSize,
      Integer queueCapacity,
      Duration connectionTimeout,
      SqlBalance balance,
      Duration failoverBackoff,
      Duration requestTimeout) {
    this.urls = List.copyOf(urls);
    this.user = user;
    this.password = password;
    this.poolSize = poolSize;
    this.queueCapacity = queueCapacity;
    this.connectionTimeout = connectionTimeout;
    this.balance = balance;
    this.failoverBackoff = failoverBackoff;
    this.requestTimeout = requestTimeout;
  }

  /** One database. Any JDBC driver on the classpath works; PostgreSQL's is included. */
  public SqlProtocolBuilder url(String url) {
    return urls(List.of(url));
  }

  /** The nodes of a cluster; see {@link #balance(SqlBalance)}. */
  public SqlProtocolBuilder urls(String... urls) {
    return urls(List.of(urls));
  }

  /** The nodes of a cluster; see {@link #balance(SqlBalance)}. */
  public SqlProtocolBuilder urls(List<String> urls) {
    FusilladeRun.noteSimulation();
    return new SqlProtocolBuilder(
        urls,
        user,
        password,
        poolSize,
        queueCapacity,
        connectionTimeout,
        balance,
        failoverBackoff,
        requestTimeout);
  }

  public SqlProtocolBuilder user(String user) {
    return new SqlProtocolBuilder(
        urls,
        user,
        password,
        poolSize,
        queueCapacity,
        connectionTimeout,
        balance,
        failoverBackoff,
        requestTimeout);
  }

  /** The password; it is never logged or written to a report. */
  public SqlProtocolBuilder password(String password) {
    return new SqlProtocolBuilder(
        urls,
        user,
        password,
        poolSize,
        queueCapacity,
        connectionTimeout,
        balance,
        failoverBackoff,
        requestTimeout);
  }

  /** Connections per node, and threads running statements: the most in flight on a node. */
  public SqlProtocolBuilder poolSize(int poolSize) {
    return new SqlProtocolBuilder(
        urls,
        user,
        password,
        poolSize,
        queueCapacity,
        connectionTimeout,
        balance,
        failoverBackoff,
        requestTimeout);
  }

  /**
   * Statements that may wait for a connection on a node (default 128 per connection); beyond that a
   * request fails at once as "injector queue full".
   */
  public SqlProtocolBuilder queueCapacity(int capacity) {
    return new SqlProtocolBuilder(
        urls,
        user,
        password,
        poolSize,
        capacity,
        connectionTimeout,
        balance,
        failoverBackoff,
        requestTimeout);
  }

  /** How long a statement may wait for a connection before it fails (default 30 s). */
  public SqlProtocolBuilder connectionTimeout(Duration timeout) {
    return new SqlProtocolBuilder(
        urls,
        user,
        password,
        poolSize,
        queueCapacity,
        timeout,
        balance,
        failoverBackoff,
        requestTimeout);
  }

  /** How requests are spread over the nodes (default: round robin). */
  public SqlProtocolBuilder balance(SqlBalance balance) {
    return new SqlProtocolBuilder(
        urls,
        user,
        password,
        poolSize,
        queueCapacity,
        connectionTimeout,
        balance,
        failoverBackoff,
        requestTimeout);
  }

  /**
   * Turns failover on: a node whose connections fail is skipped for {@code backoff} and its traffic
   * goes to the others. Keep {@link #connectionTimeout} short with it: a node that went away is
   * noticed when a connection attempt times out.
   */
  public SqlProtocolBuilder failover(Duration backoff) {
    return new SqlProtocolBuilder(
        urls,
        user,
        password,
        poolSize,
        queueCapacity,
        connectionTimeout,
        balance,
        backoff,
        requestTimeout);
  }

  /**
   * How long a request may wait for the database's answer before it fails as "timed out" (default
   * 60 s): a stuck statement must not hold a worker, and the run, for ever.
   */
  public SqlProtocolBuilder requestTimeout(Duration timeout) {
    return new SqlProtocolBuilder(
        urls,
        user,
        password,
        poolSize,
        queueCapacity,
        connectionTimeout,
        balance,
        failoverBackoff,
        timeout);
  }

  @Override
  public Protocol protocol() {
    if (urls.isEmpty()) {
      throw new IllegalStateException("The SQL protocol needs a JDBC URL: sql.url(\"jdbc:...\")");
    }
    List<SqlClientOptions> nodes = new ArrayList<>();
    for (String url : urls) {
      int queue = queueCapacity != null ? queueCapacity : poolSize * 128;
      nodes.add(
          new SqlClientOptions(
              url, user, password, poolSize, queue, connectionTimeout, requestTimeout));
    }
    return new SqlProtocol(nodes, balance, failoverBackoff);
  }
}
