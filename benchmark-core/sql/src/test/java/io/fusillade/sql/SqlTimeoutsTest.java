package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgres;
import io.fusillade.record.Status;
import io.fusillade.sql.pg.PgClient;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A request past its timeout is cancelled on the server, with either engine: it ends as "timed out
 * after ..." about when its timeout passes, and PostgreSQL is no longer running its statement (no
 * active backend in {@code pg_stat_activity}) long before the statement would have ended by itself.
 * A request whose own timeout is longer than the node's completes. One PostgreSQL for the class;
 * short sleeps stand for the long analytical queries (a timeout of 1 s against {@code pg_sleep(5)}
 * is the same mechanism as 60 s against {@code pg_sleep(75)}).
 */
@Tag("slow")
class SqlTimeoutsTest {
  private static LocalPostgres postgres;
  private static EventLoopGroup loops;

  enum Engine {
    JDBC,
    NATIVE
  }

  @BeforeAll
  static void start() {
    postgres = LocalPostgres.start();
    loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  }

  @AfterAll
  static void stop() {
    loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    postgres.close();
  }

  /** One connection, so that the next request proves the connection (or its successor) works. */
  private static SqlNode node(Engine engine, Duration requestTimeout) {
    String url = "jdbc:postgresql://127.0.0.1:" + postgres.port() + "/postgres";
    SqlClientOptions options =
        new SqlClientOptions(
            engine == Engine.NATIVE ? url + "?user=" + postgres.user() : url,
            postgres.user(),
            "",
            1,
            100,
            Duration.ofSeconds(5),
            requestTimeout);
    return engine == Engine.NATIVE
        ? PgClient.open(options, loops, NioSocketChannel::new)
        : SqlClient.open(options);
  }

  private static SqlOutcome run(SqlNode node, SqlWork work, SqlTimeout timeout) throws Exception {
    CompletableFuture<SqlOutcome> outcome = new CompletableFuture<>();
    node.execute(work, List.of(), timeout, outcome::complete);
    return outcome.get(30, TimeUnit.SECONDS);
  }

  /** Backends running a statement that holds {@code marker}, other than the asker's. */
  private static int running(String marker) throws Exception {
    try (Connection c = postgres.connect();
        PreparedStatement s =
            c.prepareStatement(
                "select count(*) from pg_stat_activity where state = 'active'"
                    + " and pid <> pg_backend_pid() and query like ?")) {
      s.setString(1, "%" + marker + "%");
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getInt(1);
      }
    }
  }

  /** Waits up to 1 s for no backend to run {@code marker}; the seconds since {@code start}. */
  private static double cancelledAfter(String marker, long start) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
    while (running(marker) > 0 && System.nanoTime() < until) {
      Thread.sleep(20);
    }
    assertThat(running(marker)).as("backends still running %s", marker).isZero();
    return (System.nanoTime() - start) / 1e9;
  }

  @ParameterizedTest
  @EnumSource(Engine.class)
  void aQueryPastTheNodesTimeoutIsCancelledOnTheServer(Engine engine) throws Exception {
    try (SqlNode node = node(engine, Duration.ofSeconds(1))) {
      String marker = "node timeout " + engine;
      long start = System.nanoTime();
      SqlOutcome outcome =
          run(
              node,
              Statements.query("select pg_sleep(5) /* " + marker + " */", new Object[0]),
              null);
      double took = (System.nanoTime() - start) / 1e9;
      assertThat(outcome.status()).isEqualTo(Status.KO);
      assertThat(outcome.reason()).isEqualTo("timed out after 1 s");
      assertThat(took).as("seconds to the timeout").isBetween(0.95, 1.6);
      // pg_sleep(5) would run until 5 s: gone at once means cancelled
      assertThat(cancelledAfter(marker, start)).as("seconds to no backend").isLessThan(2.5);
      SqlOutcome next = run(node, Statements.query("select 1", new Object[0]), null);
      assertThat(next.status()).as(next.reason()).isEqualTo(Status.OK);
    }
  }

  @ParameterizedTest
  @EnumSource(Engine.class)
  void aRequestsOwnTimeoutWinsOverTheNodes(Engine engine) throws Exception {
    try (SqlNode node = node(engine, Duration.ofSeconds(1))) {
      long start = System.nanoTime();
      // longer than the node's 1 s: completes when its own timeout is raised
      SqlOutcome raised =
          run(
              node,
              Statements.query("select pg_sleep(1.5)", new Object[0]),
              SqlTimeout.of(Duration.ofSeconds(3)));
      assertThat(raised.status()).as(raised.reason()).isEqualTo(Status.OK);
      assertThat((System.nanoTime() - start) / 1e9).isGreaterThanOrEqualTo(1.5);

      // shorter than the node's: cancelled at its own, with its own reason
      String marker = "own timeout " + engine;
      start = System.nanoTime();
      SqlOutcome lowered =
          run(
              node,
              Statements.query("select pg_sleep(5) /* " + marker + " */", new Object[0]),
              new SqlTimeout(Duration.ofMillis(300), "timed out: the set ran out"));
      assertThat(lowered.reason()).isEqualTo("timed out: the set ran out");
      assertThat((System.nanoTime() - start) / 1e9).isBetween(0.29, 0.9);
      assertThat(cancelledAfter(marker, start)).isLessThan(2.5);
    }
  }

  @ParameterizedTest
  @EnumSource(Engine.class)
  void aTransactionPastItsTimeoutIsCancelledAndRolledBack(Engine engine) throws Exception {
    try (Connection c = postgres.connect()) {
      c.createStatement().execute("create table if not exists marks (engine text)");
    }
    try (SqlNode node = node(engine, Duration.ofSeconds(1))) {
      String marker = "transaction " + engine;
      long start = System.nanoTime();
      SqlOutcome outcome =
          run(
              node,
              Statements.transaction(
                  List.of(
                      new Statements.Bound(
                          "insert into marks values ('" + engine + "')", new Object[0]),
                      new Statements.Bound(
                          "select pg_sleep(5) /* " + marker + " */", new Object[0]))),
              null);
      assertThat(outcome.reason()).isEqualTo("timed out after 1 s");
      assertThat(cancelledAfter(marker, start)).isLessThan(2.5);
    }
    try (Connection c = postgres.connect();
        ResultSet r =
            c.createStatement()
                .executeQuery("select count(*) from marks where engine = '" + engine + "'")) {
      r.next();
      assertThat(r.getInt(1)).as("the cancelled transaction's insert").isZero();
    }
  }
}
