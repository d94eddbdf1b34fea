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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQL path against a real PostgreSQL (embedded, started once for the class). */
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
      for (int i = 0; i < 6; i++) {
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
}
