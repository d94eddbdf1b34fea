package io.fusillade.gatling.sql;

import io.fusillade.sql.SqlEngine;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Everything the SQL protocol was configured with: the value a {@link SqlProtocolBuilder} wraps.
 * Each {@code with...} returns a changed copy.
 *
 * @param replicaUrls the read-only replicas, after the primaries {@code urls}
 * @param failoverBackoff the longest wait between probes of a down node, or null for 2 s
 */
record SqlSettings(
    List<String> urls,
    List<String> replicaUrls,
    SqlConnections connections,
    SqlBalance balance,
    Duration failoverBackoff,
    SqlEngine engine) {

  /**
   * No URL yet, 8 connections per node, round robin, probes of a down node up to every 2 s, JDBC.
   */
  static final SqlSettings DEFAULT =
      new SqlSettings(
          List.of(),
          List.of(),
          SqlConnections.DEFAULT,
          SqlBalance.roundRobin(),
          null,
          SqlEngine.JDBC);

  SqlSettings {
    urls = List.copyOf(urls);
    replicaUrls = List.copyOf(replicaUrls);
  }

  SqlSettings withUrls(List<String> value) {
    return new SqlSettings(value, replicaUrls, connections, balance, failoverBackoff, engine);
  }

  SqlSettings withReplicaUrls(List<String> value) {
    return new SqlSettings(urls, value, connections, balance, failoverBackoff, engine);
  }

  SqlSettings withConnections(UnaryOperator<SqlConnections> change) {
    return new SqlSettings(
        urls, replicaUrls, change.apply(connections), balance, failoverBackoff, engine);
  }

  SqlSettings withBalance(SqlBalance value) {
    return new SqlSettings(urls, replicaUrls, connections, value, failoverBackoff, engine);
  }

  SqlSettings withFailoverBackoff(Duration value) {
    return new SqlSettings(urls, replicaUrls, connections, balance, value, engine);
  }

  SqlSettings withEngine(SqlEngine value) {
    Objects.requireNonNull(value, "engine");
    return new SqlSettings(urls, replicaUrls, connections, balance, failoverBackoff, value);
  }

  /** The protocol Gatling holds: one client configuration per URL, the replicas last. */
  SqlProtocol protocol() {
    if (urls.isEmpty()) {
      throw new IllegalStateException("The SQL protocol needs a JDBC URL: sql.url(\"jdbc:...\")");
    }
    List<String> nodes = new java.util.ArrayList<>(urls);
    nodes.addAll(replicaUrls);
    return new SqlProtocol(
        nodes.stream().map(connections::node).toList(),
        replicaUrls.size(),
        balance,
        failoverBackoff,
        engine);
  }
}
