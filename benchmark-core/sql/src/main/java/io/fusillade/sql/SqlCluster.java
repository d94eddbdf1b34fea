package io.fusillade.sql;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The nodes of a database cluster, each with its own connections ({@link SqlNode}), and a {@link
 * Balancer} that spreads requests over them.
 *
 * <p>With failover on, a node whose connections fail (it refuses them or has gone away) is skipped
 * for the back-off period and its traffic goes to the others; after the period it is tried again.
 * Requests already waiting on that node fail with their reason: they are not silently retried, so
 * the report shows what the failure cost.
 */
public final class SqlCluster implements AutoCloseable {
  private final List<SqlNode> nodes;
  private final List<String> labels;
  private final Balancer balancer;
  private final long backoffNanos; // 0: failover off
  private final AtomicLongArray downUntil;

  private SqlCluster(
      List<SqlNode> nodes, List<String> labels, Balancer balancer, Duration backoff) {
    this.nodes = List.copyOf(nodes);
    this.labels = List.copyOf(labels);
    this.balancer = balancer;
    this.backoffNanos = backoff == null ? 0 : backoff.toNanos();
    this.downUntil = new AtomicLongArray(nodes.size());
  }

  /**
   * Opens a JDBC pool on every node and checks that each answers.
   *
   * @param nodes one set of options per node
   * @param balancer how to choose a node; null for round robin
   * @param failoverBackoff how long a failing node is skipped; null for no failover
   * @throws io.fusillade.FusilladeException naming the first node that cannot be reached (password
   *     masked); the nodes already opened are closed
   */
  public static SqlCluster open(
      List<SqlClientOptions> nodes, Balancer balancer, Duration failoverBackoff) {
    return open(nodes, SqlClient::open, balancer, failoverBackoff);
  }

  /**
   * Opens every node with {@code opener} (which checks that it answers), for an engine other than
   * JDBC.
   *
   * @see #open(List, Balancer, Duration)
   */
  public static SqlCluster open(
      List<SqlClientOptions> nodes,
      Function<SqlClientOptions, ? extends SqlNode> opener,
      Balancer balancer,
      Duration failoverBackoff) {
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("a cluster needs at least one node");
    }
    List<SqlNode> clients = new ArrayList<>();
    try {
      for (SqlClientOptions node : nodes) {
        clients.add(opener.apply(node));
      }
    } catch (RuntimeException e) {
      clients.forEach(SqlNode::close);
      throw e;
    }
    List<String> labels = labels(nodes);
    return new SqlCluster(
        clients,
        labels,
        balancer != null ? balancer : Balancer.roundRobin(clients.size()),
        failoverBackoff);
  }

  /** Short, distinct node names for reports: host:port/database, without credentials. */
  public static List<String> labels(List<SqlClientOptions> nodes) {
    List<String> labels = new ArrayList<>();
    for (SqlClientOptions node : nodes) {
      String url = JdbcUrls.mask(node.url());
      String label = url.replaceFirst("^jdbc:[^:]+://", "").replaceFirst("\\?.*$", "");
      labels.add(labels.contains(label) ? label + "#" + (labels.size() + 1) : label);
    }
    return labels;
  }

  public int size() {
    return nodes.size();
  }

  /** The node names used in reports. */
  public List<String> labels() {
    return labels;
  }

  /** Whether node {@code index} may receive requests now. */
  public boolean isHealthy(int index) {
    long until = downUntil.get(index); // 0: never failed (nanoTime itself may be negative)
    return until == 0 || until - System.nanoTime() <= 0;
  }

  /**
   * Runs {@code work} on the node the balancer chooses for {@code key}; {@code done} receives the
   * outcome, which names the node.
   */
  public void execute(long key, SqlWork work, List<SqlCheck> checks, Consumer<SqlOutcome> done) {
    int node = nodes.size() == 1 ? 0 : balancer.pick(key, this::isHealthy);
    nodes
        .get(node)
        .execute(
            work,
            checks,
            outcome -> {
              if (outcome.connectionFailure() && backoffNanos > 0) {
                downUntil.set(node, System.nanoTime() + backoffNanos);
              }
              done.accept(outcome.onNode(node));
            });
  }

  @Override
  public void close() {
    nodes.forEach(SqlNode::close);
  }
}
