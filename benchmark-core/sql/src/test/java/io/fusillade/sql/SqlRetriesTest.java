package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgres;
import io.fusillade.record.RunEvents;
import io.fusillade.record.Status;
import io.fusillade.sql.pg.PgClient;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Retries as pgbench does them, on a real PostgreSQL whose sessions are serializable: concurrent
 * increments of one row conflict (SQLState 40001), and with enough tries every one of them ends OK,
 * each counted once in the row; the SQLStates of the tries that failed are on the outcome, and
 * their number is the number of transactions the server rolled back ({@code pg_stat_database}'s
 * {@code xact_rollback}): every serialization failure the server raised was retried, none hidden.
 * Two transactions that lock two rows in opposite orders deadlock (40P01), and the one the server
 * aborted is tried again. With one try, the conflicts are final failures with their SQLState.
 */
@Tag("slow")
class SqlRetriesTest {
  private static LocalPostgres postgres;
  private static EventLoopGroup loops;

  enum Engine {
    JDBC,
    NATIVE
  }

  @BeforeAll
  static void start() throws Exception {
    postgres = LocalPostgres.start();
    loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    sql(
        "alter database postgres set default_transaction_isolation to 'serializable'",
        "create table counters (id int primary key, n bigint not null)",
        "insert into counters select i, 0 from generate_series(1, 10) i");
  }

  @AfterAll
  static void stop() {
    loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    postgres.close();
  }

  private static void sql(String... statements) throws Exception {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      for (String statement : statements) {
        s.execute(statement);
      }
    }
  }

  private static long value(String query) throws Exception {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(query)) {
      r.next();
      return r.getLong(1);
    }
  }

  /** Transactions the server has rolled back in this database, once the sessions have ended. */
  private static long rollbacks() throws Exception {
    return value("select xact_rollback from pg_stat_database where datname = current_database()");
  }

  private static SqlCluster cluster(Engine engine) {
    String url = "jdbc:postgresql://127.0.0.1:" + postgres.port() + "/postgres";
    SqlClientOptions options =
        new SqlClientOptions(
            engine == Engine.NATIVE ? url + "?user=" + postgres.user() : url,
            postgres.user(),
            "",
            8,
            10_000,
            Duration.ofSeconds(5),
            Duration.ofSeconds(30));
    BiFunction<SqlClientOptions, NodeHealth, SqlNode> opener =
        engine == Engine.NATIVE
            ? (o, health) -> PgClient.open(o, health, loops, NioSocketChannel::new)
            : SqlClient::open;
    return SqlCluster.open(List.of(options), opener, null, null, RunEvents.NONE);
  }

  private static List<SqlOutcome> all(SqlCluster cluster, List<SqlWork> works, SqlTries tries)
      throws Exception {
    List<CompletableFuture<SqlOutcome>> futures = new ArrayList<>();
    for (SqlWork work : works) {
      CompletableFuture<SqlOutcome> outcome = new CompletableFuture<>();
      cluster.execute(0, work, List.of(), null, tries, outcome::complete);
      futures.add(outcome);
    }
    List<SqlOutcome> outcomes = new ArrayList<>();
    for (CompletableFuture<SqlOutcome> future : futures) {
      outcomes.add(future.get(60, TimeUnit.SECONDS));
    }
    return outcomes;
  }

  /** Waits for the ended sessions' statistics to reach {@code expected}, up to 5 s. */
  private static long rollbacksReaching(long expected) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    long seen = rollbacks();
    while (seen < expected && System.nanoTime() < until) {
      Thread.sleep(100);
      seen = rollbacks();
    }
    Thread.sleep(200); // and no more come
    return rollbacks();
  }

  @ParameterizedTest
  @EnumSource(Engine.class)
  void serializationFailuresAreRetriedUntilEveryIncrementCountsOnce(Engine engine)
      throws Exception {
    int row = engine.ordinal() + 1;
    long before = rollbacks();
    List<SqlWork> increments = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      increments.add(lockedIncrement(row));
    }
    List<SqlOutcome> outcomes;
    try (SqlCluster cluster = cluster(engine)) {
      outcomes = all(cluster, increments, new SqlTries(1000, 0));
    }
    long retries = outcomes.stream().mapToLong(o -> o.retried().size()).sum();
    assertThat(outcomes)
        .as("every increment OK after its retries")
        .allMatch(o -> o.status() == Status.OK);
    assertThat(outcomes.stream().flatMap(o -> o.retried().stream()).toList())
        .as("only serialization failures are retried")
        .containsOnly(SqlTries.SERIALIZATION_FAILURE);
    assertThat(retries).as("conflicts among 8 sessions").isGreaterThan(10);
    assertThat(value("select n from counters where id = " + row))
        .as("each increment counted once")
        .isEqualTo(200);
    assertThat(rollbacksReaching(before + retries) - before)
        .as("the server's serialization failures")
        .isEqualTo(retries);
    System.out.printf("%s: 200 increments, %d retries%n", engine, retries);
  }

  @ParameterizedTest
  @EnumSource(Engine.class)
  void withOneTryAConflictIsAFailureWithItsSqlState(Engine engine) throws Exception {
    int row = engine.ordinal() + 3;
    List<SqlWork> increments = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      increments.add(lockedIncrement(row));
    }
    List<SqlOutcome> outcomes;
    try (SqlCluster cluster = cluster(engine)) {
      outcomes = all(cluster, increments, SqlTries.ONCE);
    }
    long failed = outcomes.stream().filter(o -> o.status() == Status.KO).count();
    assertThat(failed).isGreaterThan(0);
    assertThat(outcomes.stream().filter(o -> o.status() == Status.KO).toList())
        .allMatch(o -> SqlTries.SERIALIZATION_FAILURE.equals(o.sqlState()))
        .allMatch(o -> o.retried().isEmpty() && o.reason().startsWith("SQLState 40001"));
    assertThat(value("select n from counters where id = " + row)).isEqualTo(100 - failed);
  }

  @ParameterizedTest
  @EnumSource(Engine.class)
  void theTransactionADeadlockAbortedIsTriedAgain(Engine engine) throws Exception {
    int a = 5 + 2 * engine.ordinal();
    int b = a + 1;
    SqlWork ab = pair(a, b);
    SqlWork ba = pair(b, a);
    List<SqlOutcome> outcomes;
    try (SqlCluster cluster = cluster(engine)) {
      outcomes = all(cluster, List.of(ab, ba), new SqlTries(5, 0));
    }
    assertThat(outcomes).allMatch(o -> o.status() == Status.OK);
    assertThat(outcomes.stream().flatMap(o -> o.retried().stream()).toList())
        .as("the deadlock, then maybe a conflict with the transaction that won")
        .contains(SqlTries.DEADLOCK)
        .isSubsetOf(SqlTries.DEADLOCK, SqlTries.SERIALIZATION_FAILURE);
    assertThat(value("select n from counters where id = " + a)).isEqualTo(2);
    assertThat(value("select n from counters where id = " + b)).isEqualTo(2);
  }

  /**
   * An increment of {@code row} that keeps it locked for 2 ms: the sessions that wait for it fail
   * with a serialization failure when it commits.
   */
  private static SqlWork lockedIncrement(int row) {
    return Statements.transaction(
        List.of(
            new Statements.Bound("update counters set n = n + 1 where id = ?", new Object[] {row}),
            new Statements.Bound("select pg_sleep(0.002)", new Object[0])));
  }

  /** Locks {@code first}, waits for the other transaction to lock its own, then {@code second}. */
  private static SqlWork pair(int first, int second) {
    return Statements.transaction(
        List.of(
            new Statements.Bound(
                "update counters set n = n + 1 where id = " + first, new Object[0]),
            new Statements.Bound("select pg_sleep(0.3)", new Object[0]),
            new Statements.Bound(
                "update counters set n = n + 1 where id = " + second, new Object[0])));
  }
}
