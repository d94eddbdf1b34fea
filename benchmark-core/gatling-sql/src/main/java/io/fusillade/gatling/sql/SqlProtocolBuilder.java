package io.fusillade.gatling.sql;

import io.fusillade.sql.SqlClientOptions;
import io.fusillade.sql.SqlEngine;
import io.gatling.core.protocol.Protocol;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import java.util.List;

/**
 * Configures the SQL protocol. Immutable, in Gatling's style: it wraps one settings value and every
 * method returns a new builder around a changed copy.
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
  /** Connections per node unless {@link #poolSize} says. */
  public static final int DEFAULT_POOL_SIZE = 8;

  private final SqlSettings settings;

  SqlProtocolBuilder(SqlSettings settings) {
    this.settings = settings;
  }

  /** What this builder holds (for tests). */
  SqlSettings settings() {
    return settings;
  }

  /**
   * One database. Any JDBC driver on the classpath works; PostgreSQL's is included.
   *
   * <p>Example: {@code sql.url("jdbc:postgresql://db1:5432/app")}.
   */
  public SqlProtocolBuilder url(String url) {
    return urls(List.of(url));
  }

  /**
   * The nodes of a cluster; see {@link #balance(SqlBalance)}.
   *
   * <p>Example: {@code sql.urls("jdbc:postgresql://db1:5432/app",
   * "jdbc:postgresql://db2:5432/app")}.
   */
  public SqlProtocolBuilder urls(String... urls) {
    return urls(List.of(urls));
  }

  /**
   * The nodes of a cluster; see {@link #balance(SqlBalance)}.
   *
   * <p>Example: {@code sql.urls(List.of(url1, url2))}.
   */
  public SqlProtocolBuilder urls(List<String> urls) {
    return new SqlProtocolBuilder(settings.withUrls(urls));
  }

  /**
   * Streaming replicas of the nodes of {@link #urls}, which answer reads only. With replicas, a
   * request that only reads (a single {@code SELECT}, {@code VALUES}, {@code TABLE} or {@code SHOW}
   * without a locking clause, {@code INTO}, {@code nextval} or an advisory lock: see {@link
   * io.fusillade.sql.ReadStatements}) is balanced over the primaries and the replicas, and
   * everything else (writes, transactions, batches, calls, {@code WITH} queries, a query that
   * starts with the comment {@code /* primary *&#47;}) over the primaries only. {@link
   * SqlBalance#weighted} then takes one weight per node, the replicas last: {@code weighted(0, 1,
   * 1)} sends the reads to two replicas and none to the primary.
   *
   * <p>Example: {@code sql.url(primary).replicaUrls("jdbc:postgresql://replica1:5432/app")}.
   */
  public SqlProtocolBuilder replicaUrls(String... urls) {
    return replicaUrls(List.of(urls));
  }

  /**
   * The same, as a list; an empty list means no replicas.
   *
   * <p>Example: {@code sql.url(primary).replicaUrls(List.of(replica1, replica2))}.
   */
  public SqlProtocolBuilder replicaUrls(List<String> urls) {
    return new SqlProtocolBuilder(settings.withReplicaUrls(urls));
  }

  /**
   * The nodes of a cluster with their zones (see {@link SqlDsl#node}), for zone-aware balancing
   * ({@link SqlBalance#zone(String)}) and per-zone counts in the run record; a node without a zone
   * is in none.
   *
   * <p>Example: {@code sql.nodes(node(a).zone("eu-1"), node(b).zone("us-1"))}.
   */
  public SqlProtocolBuilder nodes(SqlNodeBuilder... nodes) {
    List<SqlNodeBuilder> all = List.of(nodes);
    return new SqlProtocolBuilder(
        settings.withUrls(all.stream().map(SqlNodeBuilder::url).toList()).withZones(all));
  }

  /**
   * Streaming replicas (see {@link #replicaUrls}) with their zones.
   *
   * <p>Example: {@code sql.nodes(node(primary).zone("eu-1")).replicaNodes(node(r).zone("us-1"))}.
   */
  public SqlProtocolBuilder replicaNodes(SqlNodeBuilder... replicas) {
    List<SqlNodeBuilder> all = List.of(replicas);
    return new SqlProtocolBuilder(
        settings.withReplicaUrls(all.stream().map(SqlNodeBuilder::url).toList()).withZones(all));
  }

  /**
   * The user the connections log in as.
   *
   * <p>Example: {@code sql.url(url).user("app")}.
   */
  public SqlProtocolBuilder user(String user) {
    return new SqlProtocolBuilder(settings.withConnections(c -> c.withUser(user)));
  }

  /**
   * The password; it is never logged or written to a report.
   *
   * <p>Example: {@code sql.url(url).user("app").password(System.getenv("PGPASSWORD"))}.
   */
  public SqlProtocolBuilder password(String password) {
    return new SqlProtocolBuilder(settings.withConnections(c -> c.withPassword(password)));
  }

  /**
   * Connections per node, and threads running statements: the most in flight on a node.
   *
   * <p>Example: {@code sql.url(url).poolSize(16)}.
   */
  public SqlProtocolBuilder poolSize(int poolSize) {
    return new SqlProtocolBuilder(settings.withConnections(c -> c.withPoolSize(poolSize)));
  }

  /**
   * Statements that may wait for a connection on a node (default: {@link
   * SqlClientOptions#defaultQueueCapacity}, 128 per connection and at least 65,536); beyond that a
   * request fails at once as "injector queue full".
   *
   * <p>Example: {@code sql.url(url).queueCapacity(10_000)}.
   */
  public SqlProtocolBuilder queueCapacity(int capacity) {
    return new SqlProtocolBuilder(settings.withConnections(c -> c.withQueueCapacity(capacity)));
  }

  /**
   * How long a statement may wait for a connection before it fails (default 30 s).
   *
   * <p>Example: {@code sql.url(url).connectionTimeout(Duration.ofSeconds(5))}.
   */
  public SqlProtocolBuilder connectionTimeout(Duration timeout) {
    return new SqlProtocolBuilder(settings.withConnections(c -> c.withConnectionTimeout(timeout)));
  }

  /**
   * How long a request may wait for the database's answer before it fails as "timed out" (default
   * 60 s; a request's own {@code .timeout(...)} wins): a stuck statement must not hold a worker,
   * and the run, for ever. A request past its timeout is cancelled on the server (PostgreSQL's
   * cancel request with the native engine, {@code Statement.cancel()} with JDBC), never left
   * running there.
   *
   * <p>Example: {@code sql.url(url).requestTimeout(Duration.ofSeconds(10))}.
   */
  public SqlProtocolBuilder requestTimeout(Duration timeout) {
    return new SqlProtocolBuilder(settings.withConnections(c -> c.withRequestTimeout(timeout)));
  }

  /**
   * The most tries of every request unless it says ({@code .maxTries(n)} on the request; default
   * 1): as pgbench's {@code --max-tries}, a request that fails with a serialization failure
   * (SQLState 40001) or a deadlock (40P01) is sent again at once, on the node the balancer chooses
   * again, and its latency counts from its first due time. Any other failure is final. The run
   * record counts the retries and the failures after the last try apart.
   *
   * <p>Example: {@code sql.url(url).maxTries(3)}.
   */
  public SqlProtocolBuilder maxTries(int tries) {
    return new SqlProtocolBuilder(settings.withTries(t -> t.withMaxTries(tries)));
  }

  /**
   * As pgbench's {@code --latency-limit}: a request that takes longer than {@code limit} (from its
   * due time, retries included) is counted <em>late</em> in the run record, and no retry starts
   * once it has passed.
   *
   * <p>Example: {@code sql.url(url).latencyLimit(Duration.ofMillis(50))}.
   */
  public SqlProtocolBuilder latencyLimit(Duration limit) {
    return new SqlProtocolBuilder(settings.withTries(t -> t.withLatencyLimit(limit)));
  }

  /**
   * How requests are spread over the nodes (default: round robin).
   *
   * <p>Example: {@code sql.urls(url1, url2).balance(SqlBalance.roundRobin())}.
   */
  public SqlProtocolBuilder balance(SqlBalance balance) {
    return new SqlProtocolBuilder(settings.withBalance(balance));
  }

  /**
   * The longest wait between two probes of a down node (default 2 s). Failover itself is always on:
   * a node whose connection is refused, reset or times out is marked down at once, its traffic goes
   * to the live nodes (or fails at once when none is), and a background probe tries it after 100
   * ms, then twice as long each time up to {@code backoff}, until it answers again.
   *
   * <p>Example: {@code sql.urls(url1, url2).failover(Duration.ofSeconds(2))}.
   */
  public SqlProtocolBuilder failover(Duration backoff) {
    return new SqlProtocolBuilder(settings.withFailoverBackoff(backoff));
  }

  /**
   * How to talk to the nodes (default {@link SqlEngine#JDBC}). {@link SqlEngine#NATIVE} speaks
   * PostgreSQL's protocol itself on Gatling's event loops: several times less CPU per request, for
   * PostgreSQL and the databases that speak its protocol; with it, {@link #poolSize} connections
   * are spread over the event loops (at least one each) and carry pipelined requests.
   *
   * <p>Example: {@code sql.url(url).engine(SqlEngine.NATIVE)}.
   */
  public SqlProtocolBuilder engine(SqlEngine engine) {
    return new SqlProtocolBuilder(settings.withEngine(engine));
  }

  @Override
  public Protocol protocol() {
    return settings.protocol();
  }
}
