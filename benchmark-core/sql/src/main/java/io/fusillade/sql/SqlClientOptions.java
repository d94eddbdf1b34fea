package io.fusillade.sql;

import java.time.Duration;
import java.util.Objects;

/**
 * How to reach one database and how much load to allow in flight.
 *
 * @param poolSize connections, and threads executing statements (one per connection)
 * @param queueCapacity statements that may wait for a thread; beyond it a request fails at once
 *     with "injector queue full" instead of growing an unbounded backlog
 * @param connectionTimeout how long a statement may wait for a connection before it fails
 * @param requestTimeout how long a request may wait for the database's answer before it fails (a
 *     stuck statement must not hold a worker, and the run, for ever)
 */
public record SqlClientOptions(
    String url,
    String user,
    String password,
    int poolSize,
    int queueCapacity,
    Duration connectionTimeout,
    Duration requestTimeout) {

  /** The default {@link #requestTimeout}. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);

  /** Options with the default request timeout. */
  public SqlClientOptions(
      String url,
      String user,
      String password,
      int poolSize,
      int queueCapacity,
      Duration connectionTimeout) {
    this(url, user, password, poolSize, queueCapacity, connectionTimeout, DEFAULT_REQUEST_TIMEOUT);
  }

  public SqlClientOptions {
    Objects.requireNonNull(url, "url");
    if (poolSize < 1) {
      throw new IllegalArgumentException("poolSize must be at least 1: " + poolSize);
    }
    if (queueCapacity < 1) {
      throw new IllegalArgumentException("queueCapacity must be at least 1: " + queueCapacity);
    }
  }

  /** Options with a pool of {@code poolSize} and the {@linkplain #defaultQueueCapacity queue}. */
  public static SqlClientOptions of(String url, String user, String password, int poolSize) {
    return new SqlClientOptions(
        url, user, password, poolSize, defaultQueueCapacity(poolSize), Duration.ofSeconds(30));
  }

  /**
   * The statements that may wait on a node unless told: 128 per connection, and at least 65,536.
   *
   * <p>The bound is there to keep the injector's memory finite when the database stops answering,
   * not to shape the load: a waiting statement's time counts in its latency all the same. 128 per
   * connection alone (1,024 for 8 connections) was 50 ms of a 20,000/s arrival rate, which the
   * injector's own first second (its JIT compiling the hot path) overran: 4,000 to 5,000 requests
   * failed as "injector queue full" at the start of every such run. 65,536 is over 3 s of that
   * rate, some 30 MB of waiting requests at most, and a stalled node is still found by the request
   * timeout and failover.
   *
   * @param poolSize connections per node
   * @return the default queue capacity of a node
   */
  public static int defaultQueueCapacity(int poolSize) {
    return Math.max(poolSize * QUEUE_PER_CONNECTION, MIN_QUEUE);
  }

  /** Statements that may wait per connection of a node, unless told. */
  public static final int QUEUE_PER_CONNECTION = 128;

  /** The least number of statements that may wait on a node, unless told. */
  public static final int MIN_QUEUE = 65_536;

  /**
   * The node these options reach as reasons and events name it: {@code host:port} ("connection
   * refused: 127.0.0.1:5432"), or, for a URL without a single host and known port, the URL without
   * its {@code jdbc:} prefix, query and password.
   */
  public String node() {
    String hostPort = JdbcUrls.hostPort(url);
    if (hostPort != null) {
      return hostPort;
    }
    return JdbcUrls.mask(url).replaceFirst("^jdbc:[^:]+://", "").replaceFirst("\\?.*$", "");
  }

  /** Never shows the password. */
  @Override
  public String toString() {
    return "SqlClientOptions[url="
        + JdbcUrls.mask(url)
        + ", user="
        + user
        + ", poolSize="
        + poolSize
        + ", queueCapacity="
        + queueCapacity
        + ", connectionTimeout="
        + connectionTimeout
        + ", requestTimeout="
        + requestTimeout
        + "]";
  }
}
