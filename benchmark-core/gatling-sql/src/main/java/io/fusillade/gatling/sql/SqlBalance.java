package io.fusillade.gatling.sql;

import io.fusillade.sql.Balancer;
import java.util.Arrays;
import java.util.List;

/**
 * How the SQL protocol spreads requests over the nodes given to {@code sql.urls(...)}.
 *
 * <pre>{@code
 * sql.urls(a, b, c).balance(SqlBalance.roundRobin())
 * sql.urls(a, b, c).balance(SqlBalance.weighted(2, 1, 1))
 * sql.urls(a, b, c).balance(SqlBalance.consistentHash("#{customerId}"))
 * sql.nodes(node(a).zone("eu-1"), node(b).zone("us-1")).balance(SqlBalance.zone("eu-1"))
 * }</pre>
 */
public final class SqlBalance {
  /**
   * The system property of the injector's zone, for {@link #zone()}; the environment variable
   * {@value #ZONE_VARIABLE} when it is not set.
   */
  public static final String ZONE_PROPERTY = "fusillade.zone";

  /** The environment variable of the injector's zone, for {@link #zone()}. */
  public static final String ZONE_VARIABLE = "FUSILLADE_ZONE";

  private final String kind;
  private final int[] weights;
  private final String keyExpression;
  private final String localZone; // zone balancing: the injector's zone; null: from the setting

  private SqlBalance(String kind, int[] weights, String keyExpression) {
    this(kind, weights, keyExpression, null);
  }

  private SqlBalance(String kind, int[] weights, String keyExpression, String localZone) {
    this.kind = kind;
    this.weights = weights;
    this.keyExpression = keyExpression;
    this.localZone = localZone;
  }

  /**
   * Zone-aware (geo) balancing: requests go to the nodes of the injector's own zone {@code local}
   * (round robin among them), and to the other zones' only while every local node is down or
   * stalled (see failover). Give the nodes their zones with {@link SqlProtocolBuilder#nodes}; the
   * run record times and counts the requests per zone ({@code sql zone eu-1}).
   *
   * <p>Example: {@code sql.nodes(node(a).zone("eu-1"),
   * node(b).zone("us-1")).balance(zone("eu-1"))}.
   *
   * @param local the injector's zone
   */
  public static SqlBalance zone(String local) {
    if (local == null || local.isBlank()) {
      throw new IllegalArgumentException("zone balancing needs the injector's zone");
    }
    return new SqlBalance(ZONE, null, null, local.strip());
  }

  /**
   * Zone-aware balancing ({@link #zone(String)}) from the injector's zone setting: the system
   * property {@value #ZONE_PROPERTY}, else the environment variable {@value #ZONE_VARIABLE}, read
   * when the run starts (each injector of a test says its own).
   *
   * <p>Example: {@code sql.nodes(...).balance(SqlBalance.zone())} with {@code FUSILLADE_ZONE=eu-1}.
   */
  public static SqlBalance zone() {
    return new SqlBalance(ZONE, null, null, null);
  }

  private static final String ZONE = "zone";

  /**
   * The injector's zone of a zone strategy: its own, else the setting's.
   *
   * @throws IllegalStateException when neither says
   */
  String localZone() {
    if (localZone != null) {
      return localZone;
    }
    String zone = System.getProperty(ZONE_PROPERTY);
    if (zone == null || zone.isBlank()) {
      zone = System.getenv(ZONE_VARIABLE);
    }
    if (zone == null || zone.isBlank()) {
      throw new IllegalStateException(
          "zone balancing needs the injector's zone: SqlBalance.zone(\"eu-1\"), -D"
              + ZONE_PROPERTY
              + "=eu-1 or "
              + ZONE_VARIABLE
              + "=eu-1");
    }
    return zone.strip();
  }

  /**
   * Refuses a zone strategy that no node's zone can serve: some node must be in the local zone.
   *
   * @param zones each node's zone (empty for none)
   * @throws IllegalStateException naming the local zone and the nodes' zones
   */
  void checkZones(List<String> zones) {
    if (!kind.equals(ZONE)) {
      return;
    }
    String local = localZone();
    if (!zones.contains(local)) {
      List<String> known = zones.stream().filter(z -> !z.isEmpty()).distinct().toList();
      throw new IllegalStateException(
          "zone balancing: no node is in the injector's zone \""
              + local
              + "\""
              + (known.isEmpty()
                  ? " (no node has a zone: sql.nodes(node(url).zone(\"eu-1\"), ...))"
                  : " (the nodes' zones: " + String.join(", ", known) + ")"));
    }
  }

  /**
   * Node 1, 2, 3, 1, 2, 3... (the default).
   *
   * <p>Example: {@code sql.urls(urls).balance(SqlBalance.roundRobin())}.
   */
  public static SqlBalance roundRobin() {
    return new SqlBalance("round robin", null, null);
  }

  /**
   * A node chosen at random for each request.
   *
   * <p>Example: {@code sql.urls(urls).balance(SqlBalance.random())}.
   */
  public static SqlBalance random() {
    return new SqlBalance("random", null, null);
  }

  /**
   * Round robin in proportion to one weight per node, in the order of the URLs.
   *
   * <p>Example: {@code sql.urls(urls).balance(SqlBalance.weighted(3, 1))}.
   */
  public static SqlBalance weighted(int... weights) {
    return new SqlBalance("weighted round robin", weights.clone(), null);
  }

  /**
   * Consistent hashing on a session value (a Gatling expression such as {@code "#{userId}"}): the
   * same key goes to the same node while the nodes stay the same; when one of N nodes goes, about
   * 1/N of the keys move.
   *
   * <p>Example: {@code sql.urls(urls).balance(SqlBalance.consistentHash("#{customer}"))}.
   */
  public static SqlBalance consistentHash(String keyExpression) {
    return new SqlBalance("consistent hashing", null, keyExpression);
  }

  /**
   * Consistent hashing on each request's first bound value: the key of a workload's queries ({@code
   * fusillade run --balance consistent-hash}) and of {@link SqlDsl#sqlCall} requests, whose values
   * are not in the session. A request without values goes to the node of key 0.
   *
   * <p>Example: {@code sql.urls(urls).balance(SqlBalance.consistentHashOnFirstValue())}.
   */
  public static SqlBalance consistentHashOnFirstValue() {
    return new SqlBalance("consistent hashing on the first value", null, null);
  }

  /** Whether the key is each request's first value ({@link #consistentHashOnFirstValue}). */
  boolean onFirstValue() {
    return kind.equals("consistent hashing on the first value");
  }

  /** The expression of the key, or null when the strategy needs none. */
  String keyExpression() {
    return keyExpression;
  }

  Balancer balancer(List<String> nodeNames) {
    return balancer(nodeNames, List.of());
  }

  /**
   * The balancer over nodes named {@code nodeNames} in zones {@code zones} (one per node; empty
   * when they have none).
   */
  Balancer balancer(List<String> nodeNames, List<String> zones) {
    int nodes = nodeNames.size();
    return switch (kind) {
      case ZONE -> Balancer.zone(zones, localZone());
      case "random" -> Balancer.random(nodes);
      case "weighted round robin" -> {
        if (weights.length != nodes) {
          throw new IllegalArgumentException(
              "weighted("
                  + Arrays.toString(weights)
                  + ") needs one weight per URL: "
                  + nodes
                  + " URLs");
        }
        yield Balancer.weightedRoundRobin(weights);
      }
      case "consistent hashing", "consistent hashing on the first value" ->
          Balancer.consistentHash(nodeNames, 160);
      default -> Balancer.roundRobin(nodes);
    };
  }

  /**
   * The balancer of the writes of a cluster with replicas, over its {@code primaryNames} (the first
   * nodes): the same strategy, with the weights of the primaries when weighted (round robin when
   * they are all 0, as for {@code weighted(0, 1)}: reads to the replica only).
   */
  Balancer primaryBalancer(List<String> primaryNames, List<String> primaryZones) {
    if (kind.equals(ZONE)) {
      return Balancer.zone(primaryZones, localZone());
    }
    if (weights != null) {
      int[] primaries = Arrays.copyOf(weights, primaryNames.size());
      return Arrays.stream(primaries).sum() > 0
          ? Balancer.weightedRoundRobin(primaries)
          : Balancer.roundRobin(primaryNames.size());
    }
    return balancer(primaryNames);
  }

  @Override
  public String toString() {
    if (kind.equals(ZONE)) {
      try {
        return "zone " + localZone(); // the injector's zone, as the run resolves it
      } catch (IllegalStateException e) {
        return "zone";
      }
    }
    return weights != null ? kind + " " + Arrays.toString(weights) : kind;
  }
}
