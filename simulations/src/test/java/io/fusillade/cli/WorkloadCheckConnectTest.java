package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade workload check --url URL}: the database prepares every query, and what it
 * rejects is reported at the query's line and column, before any run.
 */
@Tag("slow")
class WorkloadCheckConnectTest {
  private static LocalPostgres postgres;

  /** The Picostress example as published: its {@code $2::string} cast is not PostgreSQL's. */
  private static final Path PICOSTRESS =
      Path.of("../benchmark-core/workload/src/test/resources/workloads/picostress-queue.yml")
          .toAbsolutePath()
          .normalize();

  private static final Path PICOSTRESS_PG =
      Path.of("src/test/resources/workloads/picostress-queue-pg.yml").toAbsolutePath();

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    postgres = LocalPostgres.start();
  }

  @AfterAll
  static void stop() {
    postgres.close();
  }

  @Test
  void thePicostressExampleIsPreparedAsItRunsItsStringCastSentAsText() {
    // Picodata's ::string is PostgreSQL's ::text: prepared (and run) so, said once, verdict last
    CliRun result =
        CliRun.of("workload", "check", PICOSTRESS.toString(), "--url", postgres.jdbcUrl());
    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out())
        .startsWith(PICOSTRESS + ": workload QUEUE, seed 1")
        .contains(
            "note: "
                + PICOSTRESS
                + ":53:70 queries[0].sql: ::string is Picodata's name for text: sent as ::text")
        .endsWith(PICOSTRESS + ": OK, 1 query prepared on " + postgres.jdbcUrl() + "\n");
    assertThat(result.out().indexOf(": OK")).isEqualTo(result.out().lastIndexOf(": OK"));
  }

  @Test
  void aCastPostgresqlLacksIsAProblemAtItsColumnWithTheVerdictOnceAfterIt() throws Exception {
    Path file = dir.resolve("datetime.yml");
    Files.writeString(
        file,
        """
        tables_schema:
          - name: t
            row_count: 10
            columns:
              - {name: at, type: datetime, range: ['2020-01-01T00:00:00Z', '2021-01-01T00:00:00Z']}
        queries:
          - sql: select at from t where at < $1::datetime
            params: [{type: datetime, range: ['2020-01-01T00:00:00Z', '2021-01-01T00:00:00Z']}]
        """);
    CliRun result = CliRun.of("workload", "check", file.toString(), "--url", postgres.jdbcUrl());
    assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo(
            file
                + ":7:42 queries[0].sql: PostgreSQL has no type datetime (it is Picodata's):"
                + " write timestamptz or timestamp for PostgreSQL\n"
                + "1 problem found in "
                + file
                + " on "
                + postgres.jdbcUrl()
                + "\n");
    assertThat(result.out()).doesNotContain("OK");
  }

  @Test
  void theFixedWorkloadPassesAndLeavesNoTableBehind() throws Exception {
    CliRun result =
        CliRun.of("workload", "check", PICOSTRESS_PG.toString(), "--url", postgres.jdbcUrl());
    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out()).contains(": OK, 1 query prepared on jdbc:postgresql://");
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select to_regclass('cars_q') is null")) {
      r.next();
      assertThat(r.getBoolean(1)).as("cars_q was created in a rolled-back transaction").isTrue();
    }
  }

  @Test
  void everyRejectedQueryIsReportedNotOnlyTheFirst() throws Exception {
    Path file = dir.resolve("two.yml");
    Files.writeString(
        file,
        """
        tables_schema:
          - name: accounts
            row_count: 10
            columns:
              - {name: id, type: integer, range: [1, 10]}
        queries:
          - sql: select id from accounts where id = $1::string
            params: [{type: integer, range: [1, 10]}]
          - name: by owner
            sql: select owner from accounts
          - sql: select id from accounts where id = $1
            params: [{type: integer, range: [1, 10]}]
        """);
    CliRun result = CliRun.of("workload", "check", file.toString(), "--url", postgres.jdbcUrl());
    assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
    assertThat(result.err())
        // $1::string is sent as $1::text: the server says what is still wrong with it
        .contains(
            file
                + ":7:10 queries[0].sql: the database rejects query 'query1': ERROR: operator does"
                + " not exist: integer = text")
        .contains(
            file
                + ":10:10 queries[1].sql: the database rejects query 'by owner': ERROR: column"
                + " \"owner\" does not exist")
        .contains("2 problems found in " + file)
        .doesNotContain("queries[2]");
  }

  @Test
  void aWrongLoginNamesTheUrlWithoutItsPassword() {
    String url =
        "jdbc:postgresql://127.0.0.1:" + postgres.port() + "/postgres?user=nobody&password=hunter2";
    CliRun result = CliRun.of("workload", "check", PICOSTRESS_PG.toString(), "--url", url);
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err())
        .contains("fusillade: cannot connect to jdbc:postgresql://127.0.0.1:")
        .contains("password=***")
        .doesNotContain("hunter2", "\tat ");
  }
}
