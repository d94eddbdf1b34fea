package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.SessionlessComponents;
import io.fusillade.gen.Seeds;
import io.fusillade.record.Counter;
import io.fusillade.record.LatencyMetric;
import io.fusillade.record.RunRecorder;
import io.fusillade.record.Status;
import io.fusillade.sql.NodeHealth;
import io.fusillade.sql.ServerIdentity;
import io.fusillade.sql.SqlClient;
import io.fusillade.sql.SqlClientOptions;
import io.fusillade.sql.SqlCluster;
import io.fusillade.sql.SqlEngine;
import io.fusillade.sql.SqlNode;
import io.fusillade.sql.SqlOutcome;
import io.fusillade.sql.SqlTries;
import io.fusillade.sql.pg.PgClient;
import io.gatling.core.CoreComponents;
import io.gatling.core.config.NettyConfiguration;
import io.gatling.core.session.Session;
import io.gatling.netty.util.Transports;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SQL protocol's per-run state: the cluster (a pool and workers per node), the run recorder,
 * and each node's latency and counts, so that an imbalance between nodes shows in the report.
 *
 * <p>Per node of a cluster of two or more, the run record holds the metric {@code sql node
 * <host:port/db>} (latencies of all requests it ran) and the counters {@code sql node
 * <host:port/db> ok} and {@code ... ko}; per zone, when the nodes have zones, the same as {@code
 * sql zone <zone>} ({@link SqlZoneCounts}). A single database has no share to show: its requests
 * are only recorded once, under their names. Retries, failures after the last try and late requests
 * are counted by {@link SqlTryCounts}.
 */
public final class SqlComponents extends SessionlessComponents implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SqlComponents.class);

  private final SqlCluster cluster;
  private final Expression<Object> key;
  private final boolean keyFromFirstValue;
  private final LatencyMetric[] nodeLatency;
  private final Counter[] nodeOk;
  private final Counter[] nodeKo;
  private final SqlZoneCounts zones;
  private final SqlTryCounts tries;
  private final int maxTries;
  private final long latencyLimitNanos; // 0: none

  SqlComponents(SqlProtocol protocol, CoreComponents core, RunRecorder recorder) {
    super(core, recorder);
    List<String> names = SqlCluster.labels(protocol.nodes());
    // Opens every node's pool now, before injection: an unreachable node fails the run here.
    // The recorder takes the nodes' down and up events (events.jsonl).
    int primaries = names.size() - protocol.replicas();
    this.cluster =
        SqlCluster.open(
            protocol.nodes(),
            protocol.replicas(),
            opener(protocol.engine(), core),
            protocol.balance().balancer(names, protocol.zones()),
            protocol.replicas() == 0
                ? null
                : protocol
                    .balance()
                    .primaryBalancer(
                        names.subList(0, primaries), protocol.zones().subList(0, primaries)),
            protocol.failoverBackoff(),
            recorder);
    String keyExpression = protocol.balance().keyExpression();
    this.key = keyExpression == null ? null : Expression.el(keyExpression);
    this.keyFromFirstValue = protocol.balance().onFirstValue();
    List<String> labels = cluster.labels();
    int recorded = labels.size() > 1 ? labels.size() : 0;
    nodeLatency = new LatencyMetric[recorded];
    nodeOk = new Counter[recorded];
    nodeKo = new Counter[recorded];
    for (int i = 0; i < recorded; i++) {
      nodeLatency[i] = recorder.metric("sql node " + labels.get(i));
      nodeOk[i] = recorder.counter("sql node " + labels.get(i) + " ok");
      nodeKo[i] = recorder.counter("sql node " + labels.get(i) + " ko");
    }
    recorder.parameter("sql.nodes", labels);
    if (protocol.replicas() > 0) {
      recorder.parameter("sql.replicas", labels.subList(primaries, labels.size()));
    }
    recorder.parameter("sql.balance", protocol.balance().toString());
    this.zones = SqlZoneCounts.of(labels, protocol.zones(), recorder);
    this.tries = new SqlTryCounts(recorder);
    this.maxTries = protocol.maxTries();
    this.latencyLimitNanos =
        protocol.latencyLimit() == null ? 0 : protocol.latencyLimit().toNanos();
    SqlTryCounts.declare(recorder, maxTries, protocol.latencyLimit());
    recorder.parameter("sql.engine", protocol.engine().name().toLowerCase(java.util.Locale.ROOT));
    recordServer(protocol.nodes().get(0), recorder);
  }

  /**
   * The first node's product, version and changed settings as the {@code sql.server} parameter
   * ({@link ServerIdentity}), so that {@code fusillade compare} can name a setting that differs
   * between two runs. Asked once, over a connection of its own; a server that will not say (a
   * driver without metadata, a role that cannot read {@code pg_settings}) only leaves it out.
   */
  private static void recordServer(SqlClientOptions node, RunRecorder recorder) {
    try (Connection connection =
        DriverManager.getConnection(node.url(), node.user(), node.password())) {
      recorder.parameter("sql.server", ServerIdentity.of(connection));
    } catch (SQLException | RuntimeException e) {
      LOG.info("The server's version and settings are not recorded: {}", e.getMessage());
    }
  }

  /**
   * Opens a node with the protocol's engine. The native one joins Gatling's event loops, with the
   * socket kind (epoll, io_uring or NIO) Gatling chose for them, so that a virtual user's request
   * and its answer stay on the user's own thread.
   */
  private static BiFunction<SqlClientOptions, NodeHealth, SqlNode> opener(
      SqlEngine engine, CoreComponents core) {
    if (engine == SqlEngine.NATIVE) {
      NettyConfiguration netty = core.configuration().netty();
      var channels =
          Transports.newSocketChannelFactory(netty.useNativeTransport(), netty.useIoUring());
      return (options, health) -> PgClient.open(options, health, core.eventLoopGroup(), channels);
    }
    return SqlClient::open;
  }

  public SqlCluster cluster() {
    return cluster;
  }

  /**
   * The balancing key of a request: 0 unless the protocol hashes on a session value or on the
   * request's first value.
   */
  long key(Session session, ResolvedRequest request) {
    Object value;
    if (keyFromFirstValue) {
      value = request.firstValue();
    } else if (key != null) {
      value = key.resolve(session);
    } else {
      return 0;
    }
    if (value == null) {
      return 0;
    }
    return value instanceof Number number ? number.longValue() : Seeds.hash(String.valueOf(value));
  }

  /**
   * How often a request with {@code limits}, due at {@code startNanos}, is tried: its own most
   * tries, else the protocol's; no retry after the latency limit.
   */
  SqlTries tries(RequestLimits limits, long startNanos) {
    int max = limits.maxTries() > 0 ? limits.maxTries() : maxTries;
    if (max == 1) {
      return SqlTries.ONCE;
    }
    if (latencyLimitNanos == 0) {
      return new SqlTries(max, 0);
    }
    long until = startNanos + latencyLimitNanos;
    return new SqlTries(max, until == 0 ? 1 : until); // 0 would mean no bound
  }

  /**
   * Records a request due at {@code startNanos}: against the node that ran it (in a cluster of two
   * or more) and its zone, its retries and failures after the last try, and whether it was late.
   */
  void record(long startNanos, SqlOutcome outcome) {
    tries.record(outcome);
    if (latencyLimitNanos > 0
        && outcome.status() == Status.OK
        && outcome.endNanos() - startNanos > latencyLimitNanos) {
      tries.late();
    }
    if (nodeLatency.length == 0) {
      return;
    }
    int node = outcome.node();
    nodeLatency[node].record(startNanos, outcome.endNanos());
    (outcome.status() == Status.OK ? nodeOk : nodeKo)[node].increment();
    zones.record(node, startNanos, outcome);
  }

  @Override
  public void close() {
    cluster.close();
  }

  @Override
  public String toString() {
    return "SqlComponents" + cluster.labels();
  }
}
