package io.fusillade.gatling.sql;

import io.fusillade.sql.SqlEngine;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Everything the SQL protocol was configured with: the value a {@link SqlProtocolBuilder} wraps.
 * Each {@code with...} returns a changed copy.
 *
 * @param replicaUrls the read-only replicas, after the primaries {@code urls}
 * @param failoverBackoff the longest wait between probes of a down node, or null for 2 s
 * @param zones the zone of each node that has one, by URL
 * @param tries the requests' tries and latency limit, unless a request says
 */
record SqlSettings(
    List<String> urls,
    List<String> replicaUrls,
    SqlConnections connections,
    SqlBalance balance,
    Duration failoverBackoff,
    SqlEngine engine,
    Map<String, String> zones,
    SqlTryDefaults tries) {

  /**
   * No URL yet, 8 connections per node, round robin, probes of a down node up to every 2 s, JDBC,
   * one try per request.
   */
  static final SqlSettings DEFAULT =
      new SqlSettings(
          List.of(),
          List.of(),
          SqlConnections.DEFAULT,
          SqlBalance.roundRobin(),
          null,
          SqlEngine.JDBC,
          Map.of(),
          SqlTryDefaults.DEFAULT);

  SqlSettings {
    urls = List.copyOf(urls);
    replicaUrls = List.copyOf(replicaUrls);
    zones = Map.copyOf(zones);
  }

  SqlSettings withUrls(List<String> value) {
    return new SqlSettings(
        value, replicaUrls, connections, balance, failoverBackoff, engine, zones, tries);
  }

  SqlSettings withReplicaUrls(List<String> value) {
    return new SqlSettings(
        urls, value, connections, balance, failoverBackoff, engine, zones, tries);
  }

  SqlSettings withConnections(UnaryOperator<SqlConnections> change) {
    return new SqlSettings(
        urls,
        replicaUrls,
        change.apply(connections),
        balance,
        failoverBackoff,
        engine,
        zones,
        tries);
  }

  SqlSettings withBalance(SqlBalance value) {
    return new SqlSettings(
        urls, replicaUrls, connections, value, failoverBackoff, engine, zones, tries);
  }

  SqlSettings withFailoverBackoff(Duration value) {
    return new SqlSettings(urls, replicaUrls, connections, balance, value, engine, zones, tries);
  }

  SqlSettings withEngine(SqlEngine value) {
    Objects.requireNonNull(value, "engine");
    return new SqlSettings(
        urls, replicaUrls, connections, balance, failoverBackoff, value, zones, tries);
  }

  /** The same, with {@code nodes}' zones added to those known. */
  SqlSettings withZones(List<SqlNodeBuilder> nodes) {
    Map<String, String> all = new LinkedHashMap<>(zones);
    for (SqlNodeBuilder node : nodes) {
      if (node.zone() != null) {
        all.put(node.url(), node.zone());
      }
    }
    return new SqlSettings(
        urls, replicaUrls, connections, balance, failoverBackoff, engine, all, tries);
  }

  SqlSettings withTries(UnaryOperator<SqlTryDefaults> change) {
    return new SqlSettings(
        urls,
        replicaUrls,
        connections,
        balance,
        failoverBackoff,
        engine,
        zones,
        change.apply(tries));
  }

  /** The protocol Gatling holds: one client configuration per URL, the replicas last. */
  SqlProtocol protocol() {
    if (urls.isEmpty()) {
      throw new IllegalStateException("The SQL protocol needs a JDBC URL: sql.url(\"jdbc:...\")");
    }
    List<String> nodes = new java.util.ArrayList<>(urls);
    nodes.addAll(replicaUrls);
    List<String> nodeZones = nodes.stream().map(url -> zones.getOrDefault(url, "")).toList();
    balance.checkZones(nodeZones);
    return new SqlProtocol(
        nodes.stream().map(connections::node).toList(),
        replicaUrls.size(),
        balance,
        failoverBackoff,
        engine,
        nodeZones,
        tries.maxTries(),
        tries.latencyLimit());
  }
}
