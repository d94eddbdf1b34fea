package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgres;
import io.fusillade.record.FailureClass;
import io.fusillade.record.RunEvents;
import io.fusillade.record.Status;
import io.fusillade.sql.pg.PgClient;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A node that stops answering without refusing (its connections reset, new ones dropped: connecting
 * times out), with a 10 s connection timeout: it is marked down within about two seconds, not after
 * the pool's timeout, every KO names the network, and it comes back when it answers again.
 */
@Tag("slow")
class NodeBlackholeTest {
  private static EventLoopGroup loops;

  @BeforeAll
  static void start() {
    loops = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
  }

  @AfterAll
  static void stop() {
    loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private record Sent(long sentMs, long endMs, Status status, String reason) {}

  private static BiFunction<SqlClientOptions, NodeHealth, SqlNode> opener(SqlEngine engine) {
    return engine == SqlEngine.NATIVE
        ? (options, health) -> PgClient.open(options, health, loops, NioSocketChannel::new)
        : SqlClient::open;
  }

  @ParameterizedTest
  @EnumSource(SqlEngine.class)
  void aNodeThatDropsConnectionsIsDownForAConnectTimeoutWithinSeconds(SqlEngine engine)
      throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    RunEvents recorder = (kind, target, detail) -> events.add(kind + " " + target + " " + detail);
    ConcurrentLinkedQueue<Sent> sent = new ConcurrentLinkedQueue<>();
    int requests = 800; // 8 s at 100/s
    try (LocalPostgres postgres = LocalPostgres.start();
        TcpProxy proxy = new TcpProxy(postgres.port())) {
      String node = "127.0.0.1:" + proxy.port();
      String url = "jdbc:postgresql://" + node + "/postgres?user=postgres";
      SqlClientOptions options =
          new SqlClientOptions(url, postgres.user(), "", 4, 4 * 128, Duration.ofSeconds(10));
      try (SqlCluster cluster =
          SqlCluster.open(List.of(options), opener(engine), null, null, recorder)) {
        long start = System.nanoTime();
        CountDownLatch all = new CountDownLatch(requests);
        Thread outage =
            new Thread(
                () -> {
                  try {
                    sleepUntil(start, 2_000);
                    proxy.blackhole();
                    sleepUntil(start, 5_000);
                    proxy.restore();
                  } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                });
        outage.start();
        for (int i = 0; i < requests; i++) {
          sleepUntil(start, i * 10L);
          long sentMs = (System.nanoTime() - start) / 1_000_000;
          cluster.execute(
              i,
              Statements.query("select 1", new Object[0]),
              List.of(),
              outcome -> {
                long endMs = (outcome.endNanos() - start) / 1_000_000;
                sent.add(new Sent(sentMs, endMs, outcome.status(), outcome.reason()));
                all.countDown();
              });
        }
        outage.join();
        assertThat(all.await(30, TimeUnit.SECONDS)).as("every request ended").isTrue();
      }
      Map<String, Long> koByReason = new TreeMap<>();
      sent.stream()
          .filter(s -> s.status() == Status.KO)
          .forEach(s -> koByReason.merge(s.reason(), 1L, Long::sum));
      long slowest = sent.stream().mapToLong(s -> s.endMs() - s.sentMs()).max().orElse(0);
      System.out.printf(
          "%s blackhole: KO by reason %s; slowest request %d ms; events %s%n",
          engine, koByReason, slowest, events);
      // How the node is first seen failing varies (a reset connection, a session the driver finds
      // closed, a connect that times out): all the network's, none the injector's.
      assertThat(koByReason).isNotEmpty();
      koByReason
          .keySet()
          .forEach(
              reason ->
                  assertThat(FailureClass.of(reason)).as(reason).isEqualTo(FailureClass.NETWORK));
      assertThat(slowest).as("nobody waited for the 10 s timeouts").isLessThan(3_500);
      assertThat(
              sent.stream().filter(s -> s.sentMs() >= 7_200).allMatch(s -> s.status() == Status.OK))
          .as("back after the restore")
          .isTrue();
      assertThat(events).hasSize(2);
      assertThat(events.get(0)).startsWith("node-down " + node + " ");
      assertThat(events.get(1)).startsWith("node-up " + node + " ");
    }
  }

  private static void sleepUntil(long start, long ms) {
    long due = start + TimeUnit.MILLISECONDS.toNanos(ms);
    for (long now = System.nanoTime(); now < due; now = System.nanoTime()) {
      try {
        Thread.sleep(Math.max(1, (due - now) / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
