package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fusillade.local.LocalPostgres;
import io.fusillade.sql.pg.PgClient;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A cluster of three embedded nodes reached with the native engine: balancing is the cluster's, but
 * noticing a node that goes away is the engine's own work.
 */
@Tag("slow")
class NativeClusterTest {
  private static final List<LocalPostgres> servers = new ArrayList<>();
  private static EventLoopGroup loops;

  @BeforeAll
  static void start() {
    for (int i = 0; i < 3; i++) {
      servers.add(LocalPostgres.start());
    }
    loops = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
  }

  @AfterAll
  static void stop() {
    loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    for (LocalPostgres server : servers) {
      try {
        server.close();
      } catch (RuntimeException alreadyStopped) {
        // the failover test stops one itself
      }
    }
  }

  private static SqlCluster cluster(Duration failover) {
    List<SqlClientOptions> nodes = new ArrayList<>();
    for (LocalPostgres server : servers) {
      nodes.add(
          new SqlClientOptions(
              server.jdbcUrl(), server.user(), "", 4, 4096, Duration.ofMillis(500)));
    }
    return SqlCluster.open(
        nodes,
        (options, health) -> PgClient.open(options, health, loops, NioSocketChannel::new),
        Balancer.roundRobin(3),
        failover,
        io.fusillade.record.RunEvents.NONE);
  }

  @Test
  void roundRobinSplitsEvenlyAndANodeThatStopsIsSkipped() throws Exception {
    try (SqlCluster cluster = cluster(Duration.ofSeconds(30))) {
      double[] shares = SqlClusterTest.shares(SqlClusterTest.run(cluster, 3000), 3);
      assertThat(shares).containsExactly(new double[] {1 / 3.0, 1 / 3.0, 1 / 3.0}, within(0.01));
      SqlClusterTest.assertFailover(cluster, servers.get(2));
    }
  }
}
