package io.fusillade.gatling.sql;

import io.fusillade.sql.SqlClientOptions;
import io.fusillade.sql.SqlEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything the SQL protocol was configured with: the value a {@link SqlProtocolBuilder} wraps.
 * Each {@code with...} returns a changed copy.
 *
 * @param queueCapacity statements that may wait per node, or null for 128 per connection
 * @param failoverBackoff how long a failing node is skipped, or null when failover is off
 */
record SqlSettings(
    List<String> urls,
    String user,
    String password,
    int poolSize,
    Integer queueCapacity,
    Duration connectionTimeout,
    Duration requestTimeout,
    SqlBalance balance,
    Duration failoverBackoff,
    SqlEngine engine) {

  /** 8 connections per node, round robin, no failover, JDBC. */
  static final SqlSettings DEFAULT =
      new SqlSettings(
          List.of(),
          null,
          null,
          8,
          null,
          Duration.ofSeconds(30),
          SqlClientOptions.DEFAULT_REQUEST_TIMEOUT,
          SqlBalance.roundRobin(),
          null,
          SqlEngine.JDBC);

  SqlSettings {
    urls = List.copyOf(urls);
  }

  SqlSettings withUrls(List<String> value) {
    return new SqlSettings(
        value,
        user,
        password,
        poolSize,
        queueCapacity,
        connectionTimeout,
        requestTimeout,
        balance,
        failoverBackoff,
        engine);
  }

  SqlSettings withUser(String value) {
    return new SqlSettings(
        urls,
        value,
        password,
        poolSize,
        queueCapacity,
        connectionTimeout,
        requestTimeout,
        balance,
        failoverBackoff,
        engine);
  }

  SqlSettings withPassword(String value) {
    return new SqlSettings(
        urls,
        user,
        value,
        poolSize,
        queueCapacity,
        connectionTimeout,
        requestTimeout,
        balance,
        failoverBackoff,
        engine);
  }

  SqlSettings withPoolSize(int value) {
    return new SqlSettings(
        urls,
        user,
        password,
        value,
        queueCapacity,
        connectionTimeout,
        requestTimeout,
        balance,
        failoverBackoff,
        engine);
  }

  SqlSettings withQueueCapacity(Integer value) {
    return new SqlSettings(
        urls,
        user,
        password,
        poolSize,
        value,
        connectionTimeout,
        requestTimeout,
        balance,
        failoverBackoff,
        engine);
  }

  SqlSettings withConnectionTimeout(Duration value) {
    return new SqlSettings(
        urls,
        user,
        password,
        poolSize,
        queueCapacity,
        value,
        requestTimeout,
        balance,
        failoverBackoff,
        engine);
  }

  SqlSettings withRequestTimeout(Duration value) {
    return new SqlSettings(
        urls,
        user,
        password,
        poolSize,
        queueCapacity,
        connectionTimeout,
        value,
        balance,
        failoverBackoff,
        engine);
  }

  SqlSettings withBalance(SqlBalance value) {
    return new SqlSettings(
        urls,
        user,
        password,
        poolSize,
        queueCapacity,
        connectionTimeout,
        requestTimeout,
        value,
        failoverBackoff,
        engine);
  }

  SqlSettings withFailoverBackoff(Duration value) {
    return new SqlSettings(
        urls,
        user,
        password,
        poolSize,
        queueCapacity,
        connectionTimeout,
        requestTimeout,
        balance,
        value,
        engine);
  }

  SqlSettings withEngine(SqlEngine value) {
    return new SqlSettings(
        urls,
        user,
        password,
        poolSize,
        queueCapacity,
        connectionTimeout,
        requestTimeout,
        balance,
        failoverBackoff,
        Objects.requireNonNull(value, "engine"));
  }

  /** The protocol Gatling holds: one client configuration per URL. */
  SqlProtocol protocol() {
    if (urls.isEmpty()) {
      throw new IllegalStateException("The SQL protocol needs a JDBC URL: sql.url(\"jdbc:...\")");
    }
    List<SqlClientOptions> nodes = new ArrayList<>();
    int queue = queueCapacity != null ? queueCapacity : poolSize * 128;
    for (String url : urls) {
      nodes.add(
          new SqlClientOptions(
              url, user, password, poolSize, queue, connectionTimeout, requestTimeout));
    }
    return new SqlProtocol(nodes, balance, failoverBackoff, engine);
  }

  /** Never shows the password. */
  @Override
  public String toString() {
    return "SqlSettings[urls="
        + urls
        + ", user="
        + user
        + ", poolSize="
        + poolSize
        + ", balance="
        + balance
        + ", engine="
        + engine
        + "]";
  }
}
