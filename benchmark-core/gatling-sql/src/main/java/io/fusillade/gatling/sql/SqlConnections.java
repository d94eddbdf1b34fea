package io.fusillade.gatling.sql;

import io.fusillade.sql.SqlClientOptions;
import java.time.Duration;

/**
 * How each node of the SQL protocol is reached and how much it takes: part of {@link SqlSettings}.
 * Each {@code with...} returns a changed copy. {@link #toString()} never shows the password.
 *
 * @param queueCapacity statements that may wait per node, or null for {@link
 *     SqlClientOptions#defaultQueueCapacity}
 */
record SqlConnections(
    String user,
    String password,
    int poolSize,
    Integer queueCapacity,
    Duration connectionTimeout,
    Duration requestTimeout) {

  /** 8 connections, 30 s to get one, 60 s for an answer. */
  static final SqlConnections DEFAULT =
      new SqlConnections(
          null,
          null,
          SqlProtocolBuilder.DEFAULT_POOL_SIZE,
          null,
          Duration.ofSeconds(30),
          SqlClientOptions.DEFAULT_REQUEST_TIMEOUT);

  SqlConnections withUser(String value) {
    return new SqlConnections(
        value, password, poolSize, queueCapacity, connectionTimeout, requestTimeout);
  }

  SqlConnections withPassword(String value) {
    return new SqlConnections(
        user, value, poolSize, queueCapacity, connectionTimeout, requestTimeout);
  }

  SqlConnections withPoolSize(int value) {
    return new SqlConnections(
        user, password, value, queueCapacity, connectionTimeout, requestTimeout);
  }

  SqlConnections withQueueCapacity(Integer value) {
    return new SqlConnections(user, password, poolSize, value, connectionTimeout, requestTimeout);
  }

  SqlConnections withConnectionTimeout(Duration value) {
    return new SqlConnections(user, password, poolSize, queueCapacity, value, requestTimeout);
  }

  SqlConnections withRequestTimeout(Duration value) {
    return new SqlConnections(user, password, poolSize, queueCapacity, connectionTimeout, value);
  }

  /** The client options of the node at {@code url}. */
  SqlClientOptions node(String url) {
    int queue =
        queueCapacity != null ? queueCapacity : SqlClientOptions.defaultQueueCapacity(poolSize);
    return new SqlClientOptions(
        url, user, password, poolSize, queue, connectionTimeout, requestTimeout);
  }

  @Override
  public String toString() {
    return "SqlConnections[user=" + user + ", poolSize=" + poolSize + "]";
  }
}
