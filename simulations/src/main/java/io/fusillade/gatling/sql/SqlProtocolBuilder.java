package io.fusillade.gatling.sql;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.sql.SqlClientOptions;
import io.fusillade.sql.SqlEngine;
import io.gatling.core.protocol.Protocol;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

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
  // Never changed once a builder is returned: each method changes a fresh copy (see copy()).
  private List<String> urls = List.of();
  private String user;
  private String password;
  private int poolSize = 8;
  private Integer queueCapacity;
  private Duration connectionTimeout = Duration.ofSeconds(30);
  private SqlBalance balance = SqlBalance.roundRobin();
  private Duration failoverBackoff;
  private Duration requestTimeout = SqlClientOptions.DEFAULT_REQUEST_TIMEOUT;
  private SqlEngine engine = SqlEngine.JDBC;

  /** The defaults: 8 connections per node, round robin, no failover. */
  SqlProtocolBuilder() {}

  private SqlProtocolBuilder copy(Consumer<SqlProtocolBuilder> change) {
    SqlProtocolBuilder copy = new SqlProtocolBuilder();
    copy.urls = urls;
    copy.user = user;
    copy.password = password;
    copy.poolSize = poolSize;
    copy.queueCapacity = queueCapacity;
    copy.connectionTimeout = connectionTimeout;
    copy.balance = balance;
    copy.failoverBackoff = failoverBackoff;
    copy.requestTimeout = requestTimeout;
    copy.engine = engine;
    change.accept(copy);
    return copy;
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
    List<String> nodes = List.copyOf(urls);
    return copy(b -> b.urls = nodes);
  }

  public SqlProtocolBuilder user(String user) {
    return copy(b -> b.user = user);
  }

  /** The password; it is never logged or written to a report. */
  public SqlProtocolBuilder password(String password) {
    return copy(b -> b.password = password);
  }

  /** Connections per node, and threads running statements: the most in flight on a node. */
  public SqlProtocolBuilder poolSize(int poolSize) {
    return copy(b -> b.poolSize = poolSize);
  }

  /**
   * Statements that may wait for a connection on a node (default 128 per connection); beyond that a
   * request fails at once as "injector queue full".
   */
  public SqlProtocolBuilder queueCapacity(int capacity) {
    return copy(b -> b.queueCapacity = capacity);
  }

  /** How long a statement may wait for a connection before it fails (default 30 s). */
  public SqlProtocolBuilder connectionTimeout(Duration timeout) {
    return copy(b -> b.connectionTimeout = timeout);
  }

  /**
   * How long a request may wait for the database's answer before it fails as "timed out" (default
   * 60 s): a stuck statement must not hold a worker, and the run, for ever.
   */
  public SqlProtocolBuilder requestTimeout(Duration timeout) {
    return copy(b -> b.requestTimeout = timeout);
  }

  /** How requests are spread over the nodes (default: round robin). */
  public SqlProtocolBuilder balance(SqlBalance balance) {
    return copy(b -> b.balance = balance);
  }

  /**
   * Turns failover on: a node whose connections fail is skipped for {@code backoff} and its traffic
   * goes to the others. Keep {@link #connectionTimeout} short with it: a node that went away is
   * noticed when a connection attempt times out.
   */
  public SqlProtocolBuilder failover(Duration backoff) {
    return copy(b -> b.failoverBackoff = backoff);
  }

  /**
   * How to talk to the nodes (default {@link SqlEngine#JDBC}). {@link SqlEngine#NATIVE} speaks
   * PostgreSQL's protocol itself on Gatling's event loops: several times less CPU per request, for
   * PostgreSQL and the databases that speak its protocol; with it, {@link #poolSize} connections
   * are spread over the event loops (at least one each) and carry pipelined requests.
   */
  public SqlProtocolBuilder engine(SqlEngine engine) {
    return copy(b -> b.engine = java.util.Objects.requireNonNull(engine, "engine"));
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
    return new SqlProtocol(nodes, balance, failoverBackoff, engine);
  }
}
