package io.fusillade.sql.pg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import io.fusillade.local.LocalPostgres;
import io.fusillade.record.Status;
import io.fusillade.sql.SqlCheck;
import io.fusillade.sql.SqlClient;
import io.fusillade.sql.SqlClientOptions;
import io.fusillade.sql.SqlOutcome;
import io.fusillade.sql.SqlResult;
import io.fusillade.sql.SqlWork;
import io.fusillade.sql.Statements;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The native engine against a real PostgreSQL (embedded, one for the class). */
@Tag("slow")
class PgClientTest {
  private static LocalPostgres postgres;
  private static EventLoopGroup loops;

  @BeforeAll
  static void start() throws Exception {
    postgres = LocalPostgres.start();
    loops = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    sql(
        "create table items (id int primary key, name text)",
        "insert into items select i, 'item ' || i from generate_series(1, 100) i");
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

  private static String url(String user, String password) {
    return "jdbc:postgresql://127.0.0.1:"
        + postgres.port()
        + "/postgres?user="
        + user
        + (password == null ? "" : "&password=" + password);
  }

  private static PgClient client(int poolSize, int queueCapacity, Duration requestTimeout) {
    return PgClient.open(
        new SqlClientOptions(
            url("postgres", null),
            null,
            null,
            poolSize,
            queueCapacity,
            Duration.ofSeconds(5),
            requestTimeout),
        loops,
        NioSocketChannel::new);
  }

  private static PgClient client() {
    return client(4, 1000, Duration.ofSeconds(30));
  }

  private static SqlOutcome run(PgClient client, SqlWork work, SqlCheck... checks)
      throws Exception {
    CompletableFuture<SqlOutcome> outcome = new CompletableFuture<>();
    client.execute(work, List.of(checks), outcome::complete);
    return outcome.get(30, TimeUnit.SECONDS);
  }

  private static SqlWork query(String sql, Object... params) {
    return Statements.query(sql, params);
  }

  @Test
  void queriesAndUpdatesCountTheirRows() throws Exception {
    try (PgClient client = client()) {
      assertThat(run(client, query("select id, name from items where id = ?", 42)).rows())
          .isEqualTo(1);
      assertThat(run(client, query("select * from items where id <= $1", 30)).rows()).isEqualTo(30);
      SqlOutcome update = run(client, query("update items set name = name where id < ?", 5));
      assertThat(update.status()).isEqualTo(Status.OK);
      assertThat(update.rows()).isEqualTo(4);
      SqlOutcome large = run(client, query("select * from generate_series(1, 250000)"));
      assertThat(large.rows()).isEqualTo(250_000);
    }
  }

  @Test
  void thousandsOfPipelinedRequestsEachGetTheirOwnAnswer() throws Exception {
    try (PgClient client = client(2, 20_000, Duration.ofSeconds(30))) {
      int n = 20_000;
      List<CompletableFuture<SqlOutcome>> outcomes = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        CompletableFuture<SqlOutcome> outcome = new CompletableFuture<>();
        int id = 1 + i % 100;
        // Each answer must be the one to its own request: the name read back proves it.
        client.execute(
            Statements.query(
                "select name from items where id = ?", new Object[] {id}, Set.of("name"), 0),
            List.of(SqlCheck.column("name", "item " + id)),
            outcome::complete);
        outcomes.add(outcome);
      }
      long ok = 0;
      for (CompletableFuture<SqlOutcome> outcome : outcomes) {
        SqlOutcome o = outcome.get(60, TimeUnit.SECONDS);
        assertThat(o.reason()).isNull();
        ok += o.rows();
      }
      assertThat(ok).isEqualTo(n);
    }
  }

  @Test
  void checksReadColumnsAsJdbcWouldTypeThem() throws Exception {
    try (PgClient client = client()) {
      SqlWork row =
          Statements.query(
              "select id, name, id > 5 as big, id * 1.5 as half, id::bigint * 10 as tens"
                  + " from items where id = ?",
              new Object[] {7},
              Set.of("id", "name", "big", "half", "tens"),
              0);
      SqlOutcome ok =
          run(
              client,
              row,
              SqlCheck.rowCount(1),
              SqlCheck.column("id", 7),
              SqlCheck.column("name", "item 7"),
              SqlCheck.column("big", true),
              SqlCheck.column("half", new BigDecimal("10.5")),
              SqlCheck.column("tens", 70L));
      assertThat(ok.reason()).isNull();
      SqlOutcome wrong = run(client, row, SqlCheck.column("name", "item 8"));
      assertThat(wrong.status()).isEqualTo(Status.KO);
      assertThat(wrong.reason()).isEqualTo("check failed: expected name = item 8, got item 7");
      SqlOutcome none =
          run(
              client,
              Statements.query(
                  "select name from items where id = ?", new Object[] {0}, Set.of("name"), 0),
              SqlCheck.column("name", "x"));
      assertThat(none.reason()).isEqualTo("check failed: expected name = x, got no row");
      // A column asked for by position (from 1) comes under that key, and under its name.
      SqlWork second =
          Statements.query(
              "select id, name from items where id = ?",
              new Object[] {7},
              Set.of(SqlResult.columnAt(2)),
              0);
      SqlOutcome byPosition = run(client, second, SqlCheck.column(SqlResult.columnAt(2), "item 7"));
      assertThat(byPosition.reason()).isNull();
    }
  }

  @Test
  void aSqlErrorIsKoWithItsSqlStateAndTheRequestsAroundItGoOn() throws Exception {
    try (PgClient client = client(1, 100, Duration.ofSeconds(30))) {
      List<CompletableFuture<SqlOutcome>> outcomes = new ArrayList<>();
      for (String sql :
          List.of(
              "select 1",
              "select * from no_such_table",
              "select 2",
              "select 1/0",
              "select * from no_such_table",
              "select 3")) {
        CompletableFuture<SqlOutcome> outcome = new CompletableFuture<>();
        client.execute(query(sql), List.of(), outcome::complete);
        outcomes.add(outcome);
      }
      List<String> reasons = new ArrayList<>();
      for (CompletableFuture<SqlOutcome> outcome : outcomes) {
        reasons.add(outcome.get(30, TimeUnit.SECONDS).reason());
      }
      assertThat(reasons)
          .containsExactly(
              null,
              "SQLState 42P01: ERROR: relation \"no_such_table\" does not exist",
              null,
              "SQLState 22012: ERROR: division by zero",
              "SQLState 42P01: ERROR: relation \"no_such_table\" does not exist",
              null);
      sql("create table late_table (id int)");
      // The statement that failed to parse was forgotten: now that the table exists, it runs.
      assertThat(
              run(client, query("select * from no_such_table".replace("no_such", "late"))).status())
          .isEqualTo(Status.OK);
    }
  }

  @Test
  void aTransactionCommitsAsAUnitOrRollsBackAsAUnit() throws Exception {
    sql(
        "create table accounts (id int primary key, balance int not null check (balance >= 0))",
        "insert into accounts values (1, 100), (2, 0)");
    try (PgClient client = client()) {
      SqlWork transfer50 = transfer(50);
      SqlOutcome ok = run(client, transfer50);
      assertThat(ok.reason()).isNull();
      assertThat(ok.rows()).isEqualTo(2);
      SqlOutcome overdraw = run(client, transfer(500));
      assertThat(overdraw.status()).isEqualTo(Status.KO);
      assertThat(overdraw.reason()).startsWith("SQLState 23514");
      try (Connection c = postgres.connect();
          Statement s = c.createStatement();
          ResultSet r = s.executeQuery("select sum(balance), min(balance) from accounts")) {
        r.next();
        assertThat(r.getInt(1)).isEqualTo(100);
        assertThat(r.getInt(2)).isEqualTo(50); // the credit of the failed transfer was undone
      }
    }
  }

  private static SqlWork transfer(int amount) {
    // Credit first, so that the rollback must undo a statement that succeeded.
    return Statements.transaction(
        List.of(
            new Statements.Bound(
                "update accounts set balance = balance + ? where id = 2", new Object[] {amount}),
            new Statements.Bound(
                "update accounts set balance = balance - ? where id = 1", new Object[] {amount})));
  }

  @Test
  void aBatchRunsEverySet() throws Exception {
    sql("create table batched (id int primary key, label text)");
    try (PgClient client = client()) {
      List<Object[]> sets = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        sets.add(new Object[] {i, "label " + i});
      }
      SqlOutcome batch = run(client, Statements.batch("insert into batched values (?, ?)", sets));
      assertThat(batch.reason()).isNull();
      assertThat(batch.rows()).isEqualTo(500);
      assertThat(run(client, query("select * from batched where label like 'label %'")).rows())
          .isEqualTo(500);
    }
  }

  @Test
  void parametersOfTheCommonTypesArriveAsJdbcWouldSendThem() throws Exception {
    sql(
        "create table typed (id int, flag boolean, at timestamptz, day date, key uuid,"
            + " bytes bytea, amount numeric, ratio float8, note text, tags text[])");
    Instant at = Instant.parse("2026-11-22T10:15:30.123456Z");
    UUID key = UUID.randomUUID();
    try (PgClient client = client()) {
      SqlOutcome insert =
          run(
              client,
              query(
                  "insert into typed values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  1,
                  true,
                  at,
                  LocalDate.of(2026, 11, 22),
                  key,
                  new byte[] {0, 1, (byte) 0xff},
                  new BigDecimal("12345.678"),
                  0.25,
                  "it's \"quoted\" and ünïcode",
                  List.of("a", "b,c", "d\"e")));
      assertThat(insert.reason()).isNull();
      assertThat(run(client, query("insert into typed (id, note) values (?, ?)", 2, null)).rows())
          .isEqualTo(1);
      assertThat(run(client, query("select * from typed where id = any(?)", List.of(1, 2))).rows())
          .isEqualTo(2);
    }
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select * from typed order by id")) {
      r.next();
      assertThat(r.getBoolean("flag")).isTrue();
      assertThat(r.getObject("at", java.time.OffsetDateTime.class).toInstant()).isEqualTo(at);
      assertThat(r.getDate("day").toLocalDate()).isEqualTo(LocalDate.of(2026, 11, 22));
      assertThat(r.getObject("key")).isEqualTo(key);
      assertThat(r.getBytes("bytes")).containsExactly(0, 1, 0xff);
      assertThat(r.getBigDecimal("amount")).isEqualByComparingTo("12345.678");
      assertThat(r.getDouble("ratio")).isEqualTo(0.25);
      assertThat(r.getString("note")).isEqualTo("it's \"quoted\" and ünïcode");
      assertThat((Object[]) r.getArray("tags").getArray()).containsExactly("a", "b,c", "d\"e");
      r.next();
      assertThat(r.getString("note")).isNull();
    }
  }

  @Test
  void integersAreWrittenInDecimalAtEveryLengthAndSign() throws Exception {
    sql("create table integers (n bigint)");
    List<Long> values =
        List.of(
            0L, 7L, -1L, 9L, 10L, -10L, 99L, 100L, 123_456_789L, Long.MAX_VALUE, Long.MIN_VALUE);
    try (PgClient client = client()) {
      for (long n : values) {
        assertThat(run(client, query("insert into integers values (?)", n)).reason()).isNull();
      }
      assertThat(run(client, query("insert into integers values (?)", Integer.MIN_VALUE)).rows())
          .isEqualTo(1);
      assertThat(run(client, query("insert into integers values (?)", (short) -32768)).rows())
          .isEqualTo(1);
    }
    List<Long> stored = new java.util.ArrayList<>();
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select n from integers")) {
      while (r.next()) {
        stored.add(r.getLong(1));
      }
    }
    List<Long> expected = new java.util.ArrayList<>(values);
    expected.add((long) Integer.MIN_VALUE);
    expected.add(-32768L);
    assertThat(stored).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void aRequestWithoutAnAnswerTimesOutAndItsConnectionIsReplaced() throws Exception {
    try (PgClient client = client(1, 100, Duration.ofMillis(500))) {
      long start = System.nanoTime();
      SqlOutcome stuck = run(client, query("select pg_sleep(5)"));
      assertThat(stuck.status()).isEqualTo(Status.KO);
      assertThat(stuck.reason()).isEqualTo("timed out after 500 ms");
      assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(3));
      assertThat(run(client, query("select 1")).status()).isEqualTo(Status.OK);
    }
  }

  @Test
  void requestsAreNotPipelinedBehindAStatementThatWaits() throws Exception {
    // 2 loops, 2 connections each: one connection of each loop sleeps for 3 s
    try (PgClient client = client(4, 1000, Duration.ofSeconds(30))) {
      List<CompletableFuture<SqlOutcome>> sleeps = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        CompletableFuture<SqlOutcome> sleep = new CompletableFuture<>();
        client.execute(query("select pg_sleep(3)"), List.of(), sleep::complete);
        sleeps.add(sleep);
      }
      Thread.sleep(300);
      long start = System.nanoTime();
      List<CompletableFuture<Long>> quick = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        client.execute(query("select 1"), List.of(), o -> done.complete(System.nanoTime()));
        quick.add(done);
      }
      long last = 0;
      for (CompletableFuture<Long> done : quick) {
        last = Math.max(last, done.get(30, TimeUnit.SECONDS));
      }
      // a quick query sent behind a sleeping one would have waited for its end, 2.7 s from here
      assertThat(TimeUnit.NANOSECONDS.toMillis(last - start)).isLessThan(1_500);
      assertThat(sleeps.get(0).get(30, TimeUnit.SECONDS).status()).isEqualTo(Status.OK);
    }
  }

  @Test
  void whenEveryConnectionIsStalledRequestsWaitForTheFirstOneFree() throws Exception {
    // 2 loops, 2 connections each: one sleeps 1 s, the other 4 s
    try (PgClient client = client(4, 1000, Duration.ofSeconds(30))) {
      for (String sleep : List.of("1", "1", "4", "4")) {
        client.execute(query("select pg_sleep(" + sleep + ")"), List.of(), o -> {});
      }
      Thread.sleep(300);
      long start = System.nanoTime();
      List<CompletableFuture<SqlOutcome>> quick = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        CompletableFuture<SqlOutcome> done = new CompletableFuture<>();
        client.execute(query("select 1"), List.of(), done::complete);
        quick.add(done);
      }
      for (CompletableFuture<SqlOutcome> done : quick) {
        assertThat(done.get(30, TimeUnit.SECONDS).status()).isEqualTo(Status.OK);
      }
      // they went when the 1 s sleeps ended (0.7 s from here), none behind a 4 s one (3.7 s)
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(2_500);
    }
  }

  @Test
  void aFullQueueFailsAtOnceInsteadOfGrowingABacklog() throws Exception {
    // One connection per loop, and room for two requests per loop (pool 1 + queue 3 over 2 loops).
    try (PgClient client = client(1, 3, Duration.ofSeconds(30))) {
      List<CompletableFuture<SqlOutcome>> outcomes = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        CompletableFuture<SqlOutcome> outcome = new CompletableFuture<>();
        client.execute(query("select pg_sleep(0.3)"), List.of(), outcome::complete);
        outcomes.add(outcome);
      }
      long full = 0;
      long ok = 0;
      for (CompletableFuture<SqlOutcome> outcome : outcomes) {
        SqlOutcome o = outcome.get(30, TimeUnit.SECONDS);
        if (SqlClient.QUEUE_FULL.equals(o.reason())) {
          full++;
        } else if (o.status() == Status.OK) {
          ok++;
        }
      }
      assertThat(ok).isEqualTo(4);
      assertThat(full).isEqualTo(16);
    }
  }

  /**
   * A second of a 20,000/s arrival rate all at once, as when the injector's first second (its JIT
   * compiling) or a GC pause holds the arrivals back: the default queue holds them all (the old
   * default, 128 per connection, failed 19,000 of them as the injector's).
   */
  @Test
  void theDefaultQueueHoldsASecondOfTwentyThousandArrivals() throws Exception {
    SqlClientOptions options = SqlClientOptions.of(url("postgres", null), null, null, 8);
    assertThat(options.queueCapacity()).isEqualTo(SqlClientOptions.MIN_QUEUE);
    try (PgClient client = PgClient.open(options, loops, NioSocketChannel::new)) {
      List<CompletableFuture<SqlOutcome>> outcomes = new ArrayList<>();
      for (int i = 0; i < 20_000; i++) {
        CompletableFuture<SqlOutcome> outcome = new CompletableFuture<>();
        client.execute(query("select $1::int", i), List.of(), outcome::complete);
        outcomes.add(outcome);
      }
      Map<String, Long> reasons = new java.util.TreeMap<>();
      for (CompletableFuture<SqlOutcome> outcome : outcomes) {
        SqlOutcome o = outcome.get(60, TimeUnit.SECONDS);
        reasons.merge(o.status() == Status.OK ? "OK" : o.reason(), 1L, Long::sum);
      }
      assertThat(reasons).isEqualTo(Map.of("OK", 20_000L));
    }
  }

  @Test
  void aNodeThatCannotBeReachedFailsTheOpenNamingItsUrlButNotThePassword() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    String url = "jdbc:postgresql://127.0.0.1:" + closedPort + "/app?user=u&password=s3cret";
    assertThatThrownBy(
            () ->
                PgClient.open(
                    SqlClientOptions.of(url, null, null, 2), loops, NioSocketChannel::new))
        .isInstanceOf(FusilladeException.class)
        .hasMessageStartingWith("cannot connect to jdbc:postgresql://127.0.0.1:" + closedPort)
        .hasMessageContaining("password=***")
        .hasMessageContaining("refused")
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(
            () ->
                PgClient.open(
                    SqlClientOptions.of("jdbc:mysql://db/app", null, null, 2),
                    loops,
                    NioSocketChannel::new))
        .isInstanceOf(FusilladeException.class)
        .hasMessageContaining("needs a jdbc:postgresql:// URL");
  }

  @Test
  void passwordsAreCheckedWithScramMd5OrCleartext() throws Exception {
    sql(
        "set password_encryption = 'scram-sha-256'",
        "create role fu_scram login password 'pw-scram'",
        "create role fu_clear login password 'pw-clear'",
        "set password_encryption = 'md5'",
        "create role fu_md5 login password 'pw-md5'");
    Path hba;
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("show hba_file")) {
      r.next();
      hba = Path.of(r.getString(1));
    }
    String trusted = Files.readString(hba);
    Files.writeString(
        hba,
        String.join(
                "\n",
                "host all fu_scram 127.0.0.1/32 scram-sha-256",
                "host all fu_md5 127.0.0.1/32 md5",
                "host all fu_clear 127.0.0.1/32 password")
            + "\n"
            + trusted);
    sql("select pg_reload_conf()");
    try {
      for (String[] user :
          List.of(
              new String[] {"fu_scram", "pw-scram"},
              new String[] {"fu_md5", "pw-md5"},
              new String[] {"fu_clear", "pw-clear"})) {
        try (PgClient client =
            PgClient.open(
                new SqlClientOptions(
                    url("postgres", null), user[0], user[1], 2, 10, Duration.ofSeconds(5)),
                loops,
                NioSocketChannel::new)) {
          assertThat(run(client, query("select current_user")).status())
              .as(user[0])
              .isEqualTo(Status.OK);
        }
        assertThatThrownBy(
                () ->
                    PgClient.open(
                        new SqlClientOptions(
                            url(user[0], "wrong-" + user[1]),
                            null,
                            null,
                            2,
                            10,
                            Duration.ofSeconds(5)),
                        loops,
                        NioSocketChannel::new))
            .as(user[0])
            .isInstanceOf(FusilladeException.class)
            .hasMessageContaining("SQLState 28P01")
            .hasMessageNotContaining(user[1]);
      }
    } finally {
      Files.writeString(hba, trusted);
      sql("select pg_reload_conf()");
    }
  }

  @Test
  void connectionsTheServerEndsAreReplaced() throws Exception {
    try (PgClient client = client()) {
      assertThat(run(client, query("select 1")).status()).isEqualTo(Status.OK);
      sql(
          "select pg_terminate_backend(pid) from pg_stat_activity"
              + " where application_name = 'fusillade'");
      List<SqlOutcome> after = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        after.add(run(client, query("select 1")));
      }
      // Requests that met a dying connection are node failures (failover's signal), not hangs.
      assertThat(after)
          .allSatisfy(o -> assertThat(o.status() == Status.OK || o.connectionFailure()).isTrue());
      assertThat(after.subList(40, 50)).allSatisfy(o -> assertThat(o.reason()).isNull());
    }
  }

  @Test
  void everyRowIsKeptWhenACheckAsksForThemAll() throws Exception {
    try (PgClient client = client()) {
      java.util.concurrent.atomic.AtomicReference<SqlResult> seen =
          new java.util.concurrent.atomic.AtomicReference<>();
      SqlCheck keep =
          result -> {
            seen.set(result);
            return null;
          };
      SqlWork three =
          Statements.query(
              "select id, name from items where id <= ? order by id",
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
