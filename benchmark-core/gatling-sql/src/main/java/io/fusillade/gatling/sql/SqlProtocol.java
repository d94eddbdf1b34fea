package io.fusillade.gatling.sql;

import io.fusillade.gatling.FusilladeProtocolKey;
import io.fusillade.sql.SqlClientOptions;
import io.fusillade.sql.SqlEngine;
import io.gatling.core.protocol.Protocol;
import java.time.Duration;
import java.util.List;

/**
 * The SQL protocol as Gatling holds it: the nodes, how requests are spread over them, how much may
 * be in flight on each, and the engine that talks to them.
 *
 * @param nodes the primaries, then the replicas
 * @param replicas how many of the last nodes are read-only replicas
 * @param failoverBackoff the longest wait between probes of a down node, or null for 2 s
 * @param zones each node's zone, in the order of {@code nodes}; empty for a node without one
 * @param maxTries the most tries of a request (1: no retry), unless the request says
 * @param latencyLimit a request slower than this is counted late, and no retry starts after it;
 *     null for none
 */
public record SqlProtocol(
    List<SqlClientOptions> nodes,
    int replicas,
    SqlBalance balance,
    Duration failoverBackoff,
    SqlEngine engine,
    List<String> zones,
    int maxTries,
    Duration latencyLimit)
    implements Protocol {

  public SqlProtocol {
    nodes = List.copyOf(nodes);
    zones = List.copyOf(zones);
    if (zones.size() != nodes.size()) {
      throw new IllegalArgumentException(zones.size() + " zones for " + nodes.size() + " nodes");
    }
  }

  /** Gatling's key for this protocol: one set of components (pools, workers) per protocol. */
  public static final FusilladeProtocolKey<SqlProtocol, SqlComponents> KEY =
      new FusilladeProtocolKey<>(
          SqlProtocol.class,
          "No SQL protocol is configured: add .protocols(SqlDsl.sql.url(...)) to setUp(...)",
          SqlComponents::new);
}
