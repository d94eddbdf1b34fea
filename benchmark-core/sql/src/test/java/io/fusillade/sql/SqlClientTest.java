package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import io.fusillade.local.LocalPostgres;
import io.fusillade.record.RequestChannel;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunRecorder;
import io.fusillade.record.Status;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQL path against a real PostgreSQL (embedded, started once for the class). */
@Tag("slow")
class SqlClientTest {
  private static LocalPostgres postgres;

  @TempDir Path base;

  @BeforeAll
  static void startPostgres() throws Exception {
    postgres = LocalPostgres.start();
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("create table items (id int primary key, name text)");
      s.execute("insert into items select i, 'item ' || i from generate_series(1, 100) i");
    }
  }

  @AfterAll
  static void stopPostgres() {
    postgres.close();
  }

  private SqlClient client(int poolSize, int queueCapacity) {
    return SqlClient.open(
        new SqlClientOptions(
            postgres.jdbcUrl(),
            postgres.user(),
            "",
            poolSize,
            queueCapacity,
            Duration.ofSeconds(10)));
  }

  private static SqlOutcome run(SqlClient client, String sql, Object... params) throws Exception {
    CompletableFuture<SqlOutcome> outcome = new CompletableFuture<>();
    client.execute(sql, params, outcome::complete);
    return outcome.get(30, TimeUnit.SECONDS);
  }

  @Test
  void aQueryRunsAndItsRowsAreCounted() throws Exception {
    try (SqlClient client = client(2, 10)) {
      SqlOutcome one = run(client, "select id, name from items where id = ?", 42);
      assertThat(one.status()).isEqualTo(Status.OK);
      assertThat(one.rows()).isEqualTo(1);
      SqlOutcome range = run(client, "select * from items where id <= ?", 30);
      assertThat(range.rows()).isEqualTo(30);
      SqlOutcome update = run(client, "update items set name = ? where id < 5", "renamed");
      assertThat(update.rows()).isEqualTo(4);
    }
  }

  private static SqlOutcome run(SqlClient client, SqlWork work, SqlCheck... checks)
      throws Exception {
    CompletableFuture<SqlOutcome> outcome = new CompletableFuture<>();
    client.execute(work, List.of(checks), outcome::complete);
    return outcome.get(30, TimeUnit.SECONDS);
  }

  @Test
  void checksPassOrMakeTheRequestKo() throws Exception {
    try (SqlClient client = client(1, 10)) {
      SqlWork one =
          Statements.query(
              "select id, name from items where id = ?", new Object[] {7}, Set.of("name"), 0);
      assertThat(run(client, one, SqlCheck.rowCount(1), SqlCheck.column("name", "item 7")).status())
          .isEqualTo(Status.OK);
      // A column asked for by position (from 1) comes under that key.
      SqlWork second =
          Statements.query(
              "select id, name from items where id = ?",
              new Object[] {7},
              Set.of(SqlResult.columnAt(2)),
              0);
      assertThat(run(client, second, SqlCheck.column(SqlResult.columnAt(2), "item 7")).reason())
          .isNull();
      SqlOutcome wrong = run(client, one, SqlCheck.column("name", "item 8"));
      assertThat(wrong.status()).isEqualTo(Status.KO);
      assertThat(wrong.reason()).isEqualTo("check failed: expected name = item 8, got item 7");
      SqlOutcome count =
          run(
              client,
              Statements.query("select * from items where id < ?", new Object[] {11}),
              SqlCheck.rowCountBetween(1, 5));
      assertThat(count.reason()).isEqualTo("check failed: expected 1 to 5 rows, got 10");
    }
  }

  @Test
  void aStreamedQueryReadsEveryRow() throws Exception {
    try (SqlClient client = client(1, 10)) {
      SqlOutcome streamed =
          run(
              client,
              Statements.query(
                  "select * from generate_series(1, 25000)", new Object[0], Set.of(), 1000));
      assertThat(streamed.rows()).isEqualTo(25_000);
    }
  }

  @Test
  void aTransactionCommitsAsAUnitOrRollsBackAsAUnit() throws Exception {
    try (SqlClient client = client(1, 10)) {
      run(
          client,
          Statements.query(
              "create table accounts (id int primary key, balance int not null check (balance >= 0))",
              new Object[0]));
      run(client, Statements.query("insert into accounts values (1, 100), (2, 0)", new Object[0]));
      SqlWork transfer50 =
          Statements.transaction(
              List.of(
                  new Statements.Bound(
                      "update accounts set balance = balance - ? where id = 1", new Object[] {50}),
                  new Statements.Bound(
                      "update accounts set balance = balance + ? where id = 2",
                      new Object[] {50})));
      SqlOutcome ok = run(client, transfer50);
      assertThat(ok.status()).isEqualTo(Status.OK);
      assertThat(ok.rows()).isEqualTo(2);
      SqlWork overdraw =
          Statements.transaction(
              List.of(
                  new Statements.Bound(
                      "update accounts set balance = balance + ? where id = 2", new Object[] {500}),
                  new Statements.Bound(
                      "update accounts set balance = balance - ? where id = 1",
                      new Object[] {500})));
      SqlOutcome failed = run(client, overdraw);
      assertThat(failed.status()).isEqualTo(Status.KO);
      assertThat(failed.reason()).startsWith("SQLState 23514"); // the check constraint
      // Nothing of the failed transaction stayed, and the connection went back clean.
      SqlWork balances =
          Statements.query(
              "select balance from accounts where id = 2", new Object[0], Set.of("balance"), 0);
      assertThat(run(client, balances, SqlCheck.column("balance", 50)).status())
          .isEqualTo(Status.OK);
      assertThat(
              run(client, Statements.query("insert into accounts values (3, 1)", new Object[0]))
                  .status())
          .isEqualTo(Status.OK);
      assertThat(
              run(
                      client,
                      Statements.query("select * from accounts", new Object[0]),
                      SqlCheck.rowCount(3))
                  .status())
          .isEqualTo(Status.OK);
      run(client, Statements.query("drop table accounts", new Object[0]));
    }
  }

  @Test
  void aBatchRunsEverySetOfValues() throws Exception {
    try (SqlClient client = client(1, 10)) {
      run(client, Statements.query("create table events (id int, at timestamptz)", new Object[0]));
      List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < 250; i++) {
        rows.add(new Object[] {i, java.time.Instant.ofEpochSecond(1_700_000_000L + i)});
      }
      SqlOutcome batch = run(client, Statements.batch("insert into events values (?, ?)", rows));
      assertThat(batch.status()).as(batch.reason()).isEqualTo(Status.OK);
      assertThat(batch.rows()).isEqualTo(250);
      run(client, Statements.query("drop table events", new Object[0]));
    }
  }

  @Test
  void aStatementThatDoesNotAnswerTimesOutAndFreesItsWorker() throws Exception {
    SqlClientOptions options =
        new SqlClientOptions(
            postgres.jdbcUrl(),
            postgres.user(),
            "",
            1,
            10,
            Duration.ofSeconds(10),
            Duration.ofSeconds(1));
    try (SqlClient client = SqlClient.open(options)) {
      long start = System.nanoTime();
      SqlOutcome stuck = run(client, "select pg_sleep(30)");
      assertThat(stuck.status()).isEqualTo(Status.KO);
      assertThat(stuck.reason()).isEqualTo("timed out after 1 s");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
      assertThat(run(client, "select 1").status()).isEqualTo(Status.OK); // the worker is free again
    }
  }

  @Test
  void aSqlErrorIsAKoWithItsSqlState() throws Exception {
    try (SqlClient client = client(1, 10)) {
      SqlOutcome outcome = run(client, "select * from no_such_table");
      assertThat(outcome.status()).isEqualTo(Status.KO);
      assertThat(outcome.reason()).startsWith("SQLState 42P01:").contains("no_such_table");
      // and the client goes on working
      assertThat(run(client, "select 1").status()).isEqualTo(Status.OK);
    }
  }

  @Test
  void waitingForAConnectionCountsAsLatency() throws Exception {
    RunRecord record;
    try (RunRecorder run = RunRecorder.open(RunOptions.of("wait").withBaseDirectory(base));
        SqlClient client = client(1, 10)) {
      RequestChannel sleeper = run.request("sleeper");
      RequestChannel waiter = run.request("waiter");
      CountDownLatch done = new CountDownLatch(2);
      long sleeperStart = System.nanoTime();
      client.execute(
          "select pg_sleep(0.3)",
          new Object[0],
          o -> {
            sleeper.record(sleeperStart, o.endNanos(), o.status(), o.reason());
            done.countDown();
          });
      // Due now; the only connection is busy for 300 ms, so it waits for it.
      long waiterStart = System.nanoTime();
      client.execute(
          "select 1",
          new Object[0],
          o -> {
            waiter.record(waiterStart, o.endNanos(), o.status(), o.reason());
            done.countDown();
          });
      assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
      run.close();
      record = RunRecordReader.read(run.directory());
    }
    long waiterMicros = record.requests().get("waiter").ok().getMaxValue();
    assertThat(waiterMicros).isGreaterThanOrEqualTo(200_000);
  }

  @Test
  void aFullQueueFailsAtOnceInsteadOfGrowing() throws Exception {
    try (SqlClient client = client(1, 2)) {
      List<CompletableFuture<SqlOutcome>> outcomes = new ArrayList<>();
      CompletableFuture<SqlOutcome> first = new CompletableFuture<>();
      client.execute("select pg_sleep(0.5)", new Object[0], first::complete);
      outcomes.add(first);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (client.queued() > 0 && System.nanoTime() < deadline) {
        Thread.onSpinWait(); // until the only worker has taken it
      }
      for (int i = 1; i < 6; i++) {
        CompletableFuture<SqlOutcome> outcome = new CompletableFuture<>();
        client.execute("select pg_sleep(0.2)", new Object[0], outcome::complete);
        outcomes.add(outcome);
      }
      // One running, two queued: the other three are refused on the spot.
      long refused =
          outcomes.stream()
              .map(CompletableFuture::join)
              .filter(o -> SqlClient.QUEUE_FULL.equals(o.reason()))
              .count();
      assertThat(refused).isEqualTo(3);
    }
  }

  @Test
  void anUnreachableDatabaseFailsAtOpenNamingTheUrlWithoutThePassword() {
    String url = "jdbc:postgresql://127.0.0.1:1/app?user=app&password=s3cret";
    assertThatThrownBy(
            () ->
                SqlClient.open(
                    new SqlClientOptions(url, "app", "s3cret", 1, 1, Duration.ofSeconds(1))))
        .isInstanceOf(FusilladeException.class)
        .hasMessageContaining("cannot connect to jdbc:postgresql://127.0.0.1:1/app")
        .hasMessageContaining("password=***")
        .message()
        .doesNotContain("s3cret");
  }

  @Test
  void everyRowIsKeptWhenACheckAsksForThemAll() throws Exception {
    try (SqlClient client = client(1, 10)) {
      java.util.concurrent.atomic.AtomicReference<SqlResult> seen =
          new java.util.concurrent.atomic.AtomicReference<>();
      SqlCheck keep =
          result -> {
            seen.set(result);
            return null;
          };
      SqlWork three =
          Statements.query(
              // the name computed, not read: another test of this class renames items
              "select id, 'item ' || id as name from items where id <= ? order by id",
              new Object[] {3},
              Set.of(SqlResult.ALL_ROWS),
              0);
      assertThat(run(client, three, keep).reason()).isNull();
      assertThat(seen.get().rows()).isEqualTo(3);
      assertThat(seen.get().allRows())
          .containsExactly(
              Map.of("id", 1, "name", "item 1"),
              Map.of("id", 2, "name", "item 2"),
              Map.of("id", 3, "name", "item 3"));
      assertThat(seen.get().allRows().get(0).keySet()).containsExactly("id", "name");
      // Without the ask, no row is kept.
      SqlWork plain =
          Statements.query("select id from items where id <= ?", new Object[] {3}, Set.of("id"), 0);
      assertThat(run(client, plain, keep).reason()).isNull();
      assertThat(seen.get().allRows()).isEmpty();
    }
  }
}
