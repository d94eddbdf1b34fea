package io.fusillade.sql;

import io.fusillade.health.NodeWatch;
import io.fusillade.record.RunEvents;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * The nodes of a database cluster, each with its own connections ({@link SqlNode}), and a {@link
 * Balancer} that spreads requests over them.
 *
 * <p>Fail fast on a dead node: a node whose connection is refused, reset or times out is marked
 * down at once (by its client, through its {@link NodeHealth}) and a background probe ({@link
 * NodeWatch}) tries it again after 100 ms, then after twice as long each time, up to the failover
 * back-off (2 s by default), until it answers. While it is down the balancer sends its requests to
 * the live nodes in its own order; when none is live, a request fails at once with the node's
 * reason ("connection refused: 127.0.0.1:5432") — never queued behind a pool's connection timeout.
 * Requests already running on the node when it failed end with their own reason: they are not
 * silently retried, so the report shows what the failure cost. Each node down and up is an event of
 * the run record ({@code events.jsonl}).
 *
 * <p>A node of a cluster that holds requests but answers none (a paused server, whose connections
 * stay open) is {@linkplain NodeStalls stalled}: new requests go to the other nodes until it
 * answers again, and those it holds wait for it.
 */
public final class SqlCluster implements AutoCloseable {
  private final List<SqlNode> nodes;
  private final List<String> labels;
  private final Balancer balancer;
  private final int primaries;
  private final Balancer primaryBalancer;
  private final NodeWatch watch;
  private final NodeStalls stalls; // null for a single node, which has nowhere else to send

  private SqlCluster(
      List<SqlNode> nodes,
      List<String> labels,
      Balancer balancer,
      int primaries,
      Balancer primaryBalancer,
      NodeWatch watch,
      NodeStalls stalls) {
    this.nodes = List.copyOf(nodes);
    this.labels = List.copyOf(labels);
    this.balancer = balancer;
    this.primaries = primaries;
    this.primaryBalancer = primaryBalancer;
    this.watch = watch;
    this.stalls = stalls;
  }

  /**
   * Opens a JDBC pool on every node and checks that each answers; node events are dropped.
   *
   * @see #open(List, BiFunction, Balancer, Duration, RunEvents)
   */
  public static SqlCluster open(
      List<SqlClientOptions> nodes, Balancer balancer, Duration failoverBackoff) {
    return open(nodes, SqlClient::open, balancer, failoverBackoff, RunEvents.NONE);
  }

  /**
   * Opens every node with {@code opener} (which checks that it answers), giving each the handle on
   * its state in the cluster that lets it fail fast: {@code SqlClient::open} for JDBC, {@code
   * (options, health) -> PgClient.open(options, health, loops, channels)} for the native engine.
   *
   * @param nodes one set of options per node
   * @param opener opens one node
   * @param balancer how to choose a node; null for round robin
   * @param failoverBackoff the longest wait between two probes of a down node; null for 2 s
   * @param events where node down and up go: the run's recorder, or {@link RunEvents#NONE}
   * @throws io.fusillade.FusilladeException naming the first node that cannot be reached (password
   *     masked); the nodes already opened are closed
   */
  public static SqlCluster open(
      List<SqlClientOptions> nodes,
      BiFunction<SqlClientOptions, NodeHealth, ? extends SqlNode> opener,
      Balancer balancer,
      Duration failoverBackoff,
      RunEvents events) {
    return open(nodes, 0, opener, balancer, null, failoverBackoff, events);
  }

  /**
   * Opens a cluster whose last {@code replicas} nodes are read-only streaming replicas: a read
   * ({@link ReadStatements}) goes to the node {@code balancer} picks among all of them, anything
   * else to the one {@code primaryBalancer} picks among the primaries (the nodes before the
   * replicas).
   *
   * @param primaryBalancer how to choose among the primaries; null for round robin
   * @see #open(List, BiFunction, Balancer, Duration, RunEvents)
   */
  public static SqlCluster open(
      List<SqlClientOptions> nodes,
      int replicas,
      BiFunction<SqlClientOptions, NodeHealth, ? extends SqlNode> opener,
      Balancer balancer,
      Balancer primaryBalancer,
      Duration failoverBackoff,
      RunEvents events) {
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("a cluster needs at least one node");
    }
    if (replicas < 0 || replicas >= nodes.size()) {
      throw new IllegalArgumentException(
          "a cluster of " + nodes.size() + " nodes needs a primary: " + replicas + " replicas");
    }
    int primaries = nodes.size() - replicas;
    List<String> labels = labels(nodes);
    List<String> names = nodes.stream().map(SqlClientOptions::node).toList();
    // The probe reaches the clients through this list, filled before any request can fail.
    List<SqlNode> clients = new CopyOnWriteArrayList<>();
    NodeWatch watch =
        new NodeWatch(names, node -> clients.get(node).probe(), events, backoff(failoverBackoff));
    try {
      for (int i = 0; i < nodes.size(); i++) {
        clients.add(opener.apply(nodes.get(i), new Member(watch, i)));
      }
    } catch (RuntimeException e) {
      watch.close();
      clients.forEach(SqlNode::close);
      throw e;
    }
    return new SqlCluster(
        clients,
        labels,
        balancer != null ? balancer : Balancer.roundRobin(clients.size()),
        primaries,
        replicas == 0
            ? null
            : primaryBalancer != null ? primaryBalancer : Balancer.roundRobin(primaries),
        watch,
        clients.size() > 1 ? new NodeStalls(names, events) : null);
  }

  private static NodeWatch.Backoff backoff(Duration max) {
    if (max == null) {
      return NodeWatch.Backoff.DEFAULT;
    }
    Duration first = NodeWatch.Backoff.DEFAULT.first();
    return new NodeWatch.Backoff(max.compareTo(first) < 0 ? max : first, max);
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

  /** The read-only replicas: the last nodes, after the primaries. */
  public int replicas() {
    return nodes.size() - primaries;
  }

  /** Whether node {@code index} may receive requests now: it is not down. */
  public boolean isHealthy(int index) {
    return !watch.isDown(index);
  }

  /**
   * Runs {@code work} on the node the balancer chooses for {@code key} among the live ones (among
   * the live primaries when the cluster has replicas and {@code work} is not a read); {@code done}
   * receives the outcome, which names the node. When every node is down, the outcome is a KO with
   * the chosen node's reason, at once and on the calling thread.
   */
  public void execute(long key, SqlWork work, List<SqlCheck> checks, Consumer<SqlOutcome> done) {
    execute(key, work, checks, null, SqlTries.ONCE, done);
  }

  /**
   * Runs {@code work} as {@link #execute(long, SqlWork, List, Consumer)} does, within {@code
   * timeout}, and tries it again while {@code tries} allows: after a serialization failure or a
   * deadlock ({@link SqlTries}), the balancer chooses a node again and the work is sent again, at
   * once. {@code done} receives the last try's outcome, with the SQLStates of the tries before it
   * ({@link SqlOutcome#retried()}).
   *
   * @param timeout each try's timeout, or null for the node's request timeout
   * @param tries how often it may be tried
   */
  public void execute(
      long key,
      SqlWork work,
      List<SqlCheck> checks,
      SqlTimeout timeout,
      SqlTries tries,
      Consumer<SqlOutcome> done) {
    if (tries.max() == 1) {
      once(key, work, checks, timeout, done);
      return;
    }
    tryAgain(key, work, checks, timeout, tries, List.of(), done);
  }

  private void tryAgain(
      long key,
      SqlWork work,
      List<SqlCheck> checks,
      SqlTimeout timeout,
      SqlTries tries,
      List<String> failed,
      Consumer<SqlOutcome> done) {
    once(
        key,
        work,
        checks,
        timeout,
        outcome -> {
          if (outcome.status() == io.fusillade.record.Status.KO
              && tries.again(failed.size() + 1, outcome.sqlState(), System.nanoTime())) {
            List<String> more = new ArrayList<>(failed);
            more.add(outcome.sqlState());
            tryAgain(key, work, checks, timeout, tries, more, done);
          } else {
            done.accept(outcome.afterRetries(failed));
          }
        });
  }

  private void once(
      long key,
      SqlWork work,
      List<SqlCheck> checks,
      SqlTimeout timeout,
      Consumer<SqlOutcome> done) {
    if (stalls == null) {
      String down = watch.reason(0);
      if (down != null) {
        done.accept(SqlOutcome.connectionFailure(down).onNode(0));
        return;
      }
      nodes.get(0).execute(work, checks, timeout, done);
      return;
    }
    long sent = System.nanoTime();
    int node;
    if (primaryBalancer == null || ReadStatements.isRead(work)) {
      node = pick(balancer, key, sent);
    } else {
      node = primaries == 1 ? 0 : pick(primaryBalancer, key, sent);
    }
    String down = watch.reason(node);
    if (down != null) {
      done.accept(SqlOutcome.connectionFailure(down).onNode(node));
      return;
    }
    stalls.sent(node, sent);
    nodes
        .get(node)
        .execute(
            work,
            checks,
            timeout,
            outcome -> {
              stalls.ended(node, sent, outcome.endNanos(), outcome.fromServer());
              done.accept(outcome.onNode(node));
            });
  }

  /**
   * The node {@code chooser} picks among the live nodes that are not stalled; among the live ones
   * when every one is stalled (a stalled node still holds the request, where a down one fails it).
   */
  private int pick(Balancer chooser, long key, long nowNanos) {
    int node = chooser.pick(key, i -> isHealthy(i) && !stalls.isStalled(i, nowNanos));
    if (isHealthy(node) && !stalls.isStalled(node, nowNanos)) {
      return node;
    }
    return chooser.pick(key, this::isHealthy);
  }

  /** Stops probing, then closes every node. */
  @Override
  public void close() {
    watch.close();
    nodes.forEach(SqlNode::close);
  }

  /** A node's place in the cluster's watch, as its client sees it. */
  private record Member(NodeWatch watch, int index) implements NodeHealth {
    @Override
    public boolean isDown() {
      return watch.isDown(index);
    }

    @Override
    public String reason() {
      return watch.reason(index);
    }

    @Override
    public boolean markDown(String reason) {
      return watch.markDown(index, reason);
    }
  }
}
