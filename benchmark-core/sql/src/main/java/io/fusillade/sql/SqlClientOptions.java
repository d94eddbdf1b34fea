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

  /** Options with a pool of {@code poolSize} and a queue of 128 statements per connection. */
  public static SqlClientOptions of(String url, String user, String password, int poolSize) {
    return new SqlClientOptions(
        url, user, password, poolSize, poolSize * 128, Duration.ofSeconds(30));
  }

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
