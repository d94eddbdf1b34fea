package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgres;
import io.fusillade.record.FailureClass;
import io.fusillade.record.RunEvent;
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
 * The outage of issue 18: a database stopped as a crash would ({@code pg_ctl stop -m immediate})
 * under 200 requests a second, and started again three seconds later. With either engine, and a
 * connection timeout of 10 s as {@code fusillade run} has, no request waits for that timeout: those
 * sent while the node is down fail at once naming the refused connection, never the injector, and
 * requests succeed again soon after the restart. The node's down and up are events.
 */
@Tag("slow")
class NodeOutageTest {
  private static EventLoopGroup loops;

  @BeforeAll
  static void start() {
    loops = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
  }

  @AfterAll
  static void stop() {
    loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** One request: when it was sent and ended (ms from the start), how, and why. */
  private record Sent(long sentMs, long endMs, Status status, String reason) {}

  private static BiFunction<SqlClientOptions, NodeHealth, SqlNode> opener(SqlEngine engine) {
    return engine == SqlEngine.NATIVE
        ? (options, health) -> PgClient.open(options, health, loops, NioSocketChannel::new)
        : SqlClient::open;
  }

  @ParameterizedTest
  @EnumSource(SqlEngine.class)
  void aNodeStoppedAndRestartedFailsFastThenServesAgain(SqlEngine engine) throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    RunEvents recorder = (kind, target, detail) -> events.add(kind + " " + target + " " + detail);
    ConcurrentLinkedQueue<Sent> sent = new ConcurrentLinkedQueue<>();
    int requests = 1800; // 9 s at 200/s
    long[] restartedMs = new long[1];
    try (LocalPostgres postgres = LocalPostgres.start()) {
      String node = "localhost:" + postgres.port();
      SqlClientOptions options =
          new SqlClientOptions(
              postgres.jdbcUrl(), postgres.user(), "", 8, 8 * 128, Duration.ofSeconds(10));
      try (SqlCluster cluster =
          SqlCluster.open(List.of(options), opener(engine), null, null, recorder)) {
        long start = System.nanoTime();
        CountDownLatch all = new CountDownLatch(requests);
        Thread outage =
            new Thread(
                () -> {
                  sleepUntil(start, 2_000);
                  postgres.stopImmediately();
                  sleepUntil(start, 5_000);
                  postgres.restart();
                  restartedMs[0] = (System.nanoTime() - start) / 1_000_000;
                });
        outage.start();
        for (int i = 0; i < requests; i++) {
          sleepUntil(start, i * 5L);
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
      long firstOkAfterRestart =
          sent.stream()
              .filter(s -> s.status() == Status.OK && s.sentMs() >= 2_100)
              .mapToLong(Sent::endMs)
              .min()
              .orElse(Long.MAX_VALUE);
      long slowest = sent.stream().mapToLong(s -> s.endMs() - s.sentMs()).max().orElse(0);
      System.out.printf(
          "%s outage: KO by reason %s; restarted at %d ms, first OK %d ms later; slowest"
              + " request %d ms; events %s%n",
          engine,
          koByReason,
          restartedMs[0],
          firstOkAfterRestart - restartedMs[0],
          slowest,
          events);

      // Every KO names the network (the refused connection, the cut session) or, the moment the
      // server goes, its own answer that it is shutting down (SQLState 57P03); none the injector.
      long ko = koByReason.values().stream().mapToLong(Long::longValue).sum();
      koByReason
          .keySet()
          .forEach(
              reason -> {
                assertThat(FailureClass.of(reason)).as(reason).isNotEqualTo(FailureClass.INJECTOR);
                if (FailureClass.of(reason) == FailureClass.SERVER) {
                  assertThat(reason).startsWith("SQLState 57P0");
                }
              });
      assertThat(koByReason.getOrDefault("connection refused: " + node, 0L))
          .isGreaterThan(ko * 9 / 10);
      // Nothing waited for the pool's 10 s connection timeout.
      assertThat(slowest).isLessThan(1_500);
      // Back soon after the restart, and all OK from then on.
      assertThat(firstOkAfterRestart - restartedMs[0]).isLessThan(2_500);
      assertThat(
              sent.stream()
                  .filter(s -> s.sentMs() >= restartedMs[0] + 2_500)
                  .allMatch(s -> s.status() == Status.OK))
          .isTrue();
      assertThat(events).hasSize(2);
      assertThat(events.get(0))
          .satisfiesAnyOf(
              e ->
                  assertThat(e)
                      .isEqualTo(RunEvent.NODE_DOWN + " " + node + " connection refused: " + node),
              e -> assertThat(e).startsWith(RunEvent.NODE_DOWN + " " + node + " SQLState 57P0"));
      assertThat(events.get(1)).startsWith(RunEvent.NODE_UP + " " + node + " down for ");
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
