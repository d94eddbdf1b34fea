package io.fusillade.gatling.sql;

import java.util.Objects;

/**
 * One node of the SQL protocol, with the zone it is in (a region, a data centre, an availability
 * zone: any name): for {@link SqlProtocolBuilder#nodes} and {@link
 * SqlProtocolBuilder#replicaNodes}, and zone-aware balancing ({@link SqlBalance#zone(String)}).
 * Immutable.
 *
 * <pre>{@code
 * sql.nodes(node("jdbc:postgresql://db1:5432/app").zone("eu-1"),
 *           node("jdbc:postgresql://db2:5432/app").zone("us-1"))
 * }</pre>
 */
public final class SqlNodeBuilder {
  private final String url;
  private final String zone;

  SqlNodeBuilder(String url, String zone) {
    this.url = Objects.requireNonNull(url, "url");
    this.zone = zone;
  }

  /**
   * The zone the node is in; requests are counted and timed per zone in the run record ({@code sql
   * zone eu-1}).
   *
   * <p>Example: {@code node("jdbc:postgresql://db1:5432/app").zone("eu-1")}.
   */
  public SqlNodeBuilder zone(String zone) {
    if (zone == null || zone.isBlank()) {
      throw new IllegalArgumentException("a zone needs a name");
    }
    return new SqlNodeBuilder(url, zone.strip());
  }

  String url() {
    return url;
  }

  /** The zone, or null when not given. */
  String zone() {
    return zone;
  }
}
