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
 * }</pre>
 */
public final class SqlBalance {
  private final String kind;
  private final int[] weights;
  private final String keyExpression;

  private SqlBalance(String kind, int[] weights, String keyExpression) {
    this.kind = kind;
    this.weights = weights;
    this.keyExpression = keyExpression;
  }

  /** Node 1, 2, 3, 1, 2, 3... (the default). */
  public static SqlBalance roundRobin() {
    return new SqlBalance("round robin", null, null);
  }

  /** A node chosen at random for each request. */
  public static SqlBalance random() {
    return new SqlBalance("random", null, null);
  }

  /** Round robin in proportion to one weight per node, in the order of the URLs. */
  public static SqlBalance weighted(int... weights) {
    return new SqlBalance("weighted round robin", weights.clone(), null);
  }

  /**
   * Consistent hashing on a session value (a Gatling expression such as {@code "#{userId}"}): the
   * same key goes to the same node while the nodes stay the same; when one of N nodes goes, about
   * 1/N of the keys move.
   */
  public static SqlBalance consistentHash(String keyExpression) {
    return new SqlBalance("consistent hashing", null, keyExpression);
  }

  /**
   * Consistent hashing on each request's first bound value: the key of a workload's queries ({@code
   * fusillade run --balance consistent-hash}) and of {@link SqlDsl#sqlCall} requests, whose values
   * are not in the session. A request without values goes to the node of key 0.
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
    int nodes = nodeNames.size();
    return switch (kind) {
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
  Balancer primaryBalancer(List<String> primaryNames) {
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
    return weights != null ? kind + " " + Arrays.toString(weights) : kind;
  }
}
