package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgres;
import io.fusillade.progress.Progress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fusillade schema up|fill|down} and {@code run}'s user errors, on a real PostgreSQL. */
@Tag("slow")
class SchemaCommandTest {
  private static LocalPostgres postgres;
  private static final Path WORKLOAD =
      Path.of("src/test/resources/workloads/picostress-queue-pg.yml").toAbsolutePath();

  @BeforeAll
  static void start() {
    postgres = LocalPostgres.start();
  }

  @AfterAll
  static void stop() {
    postgres.close();
  }

  private static long count(String sql) throws Exception {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }

  private static String indexDefinition(String name) throws Exception {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery("select indexdef from pg_indexes where indexname = '" + name + "'")) {
      return r.next() ? r.getString(1) : "";
    }
  }

  @Test
  void anIndexTypeAndStorageParametersThatPostgresqlHasAreUsed(@TempDir Path dir) throws Exception {
    Path workload = dir.resolve("vendor.yml");
    Files.writeString(
        workload,
        """
        tables_schema:
          - name: vendor_t
            row_count: 10
            columns:
              - {name: id, type: integer, unique: true, range: [1, 10]}
              - {name: tag, type: string, range: [3, 8]}
            primary_keys: [id]
            timeout: 5s
        indexes:
          - name: vendor_tag_hash
            table_name: vendor_t
            columns_names: [tag]
            type: hash
            options:
              - {name: fillfactor, value: 70}
        queries:
          - sql: select 1
        """);
    String url = postgres.jdbcUrl();
    CliRun up = CliRun.of("schema", "up", workload.toString(), "--url", url);
    try {
      assertThat(up.exitCode()).as(up.err()).isZero();
      assertThat(up.out()).doesNotContain("ignored");
      assertThat(indexDefinition("vendor_tag_hash"))
          .contains("USING hash (tag)")
          .contains("fillfactor='70'");
    } finally {
      CliRun.of("schema", "down", workload.toString(), "--url", url);
    }
  }

  @Test
  void upWithFillLoadsTheRowsBeforeTheIndexesAndAnalyzesTheTables(@TempDir Path dir)
      throws Exception {
    Path workload = dir.resolve("load.yml");
    Files.writeString(
        workload,
        """
        tables_schema:
          - name: load_t
            row_count: 1000
            columns:
              - {name: id, type: integer, distribution: sequential, range: [1, 1000], unique: true}
              - {name: grp, type: integer, distribution: sequential, range: [1, 10], repeat: 100}
              - {name: label, type: text, generated: "'group ' || grp::text"}
            primary_keys: [id]
        indexes:
          - {name: load_t_label, table_name: load_t, columns_names: [label]}
        queries:
          - sql: select 1
        """);
    String url = postgres.jdbcUrl();
    CliRun fill = CliRun.of("schema", "fill", workload.toString(), "--url", url, "--fill");
    assertThat(fill.exitCode()).isEqualTo(2);
    assertThat(fill.err().strip())
        .isEqualTo("fusillade: schema fill: --fill goes with up (schema up --fill)");
    CliRun up = CliRun.of("schema", "up", workload.toString(), "--url", url, "--fill");
    try {
      assertThat(up.exitCode()).as(up.err()).isZero();
      String out = up.out();
      assertThat(out.indexOf("filled load_t: 1,000 rows"))
          .isPositive()
          .isLessThan(out.indexOf("created index load_t_label"));
      assertThat(count("select count(*) from load_t where label = 'group ' || grp"))
          .isEqualTo(1000);
      assertThat(count("select count(*) from load_t where grp = 7 and id between 601 and 700"))
          .isEqualTo(100);
      // analyzed once filled: the planner has each column's statistics without autovacuum
      assertThat(count("select count(*) from pg_stats where tablename = 'load_t'")).isEqualTo(3);
    } finally {
      CliRun.of("schema", "down", workload.toString(), "--url", url);
    }
  }

  @Test
  void upFillAndDownCreateFillAndDropTheWorkloadsTables() throws Exception {
    String url = postgres.jdbcUrl();
    CliRun up = CliRun.of("schema", "up", WORKLOAD.toString(), "--url", url);
    assertThat(up.exitCode()).as(up.err()).isZero();
    assertThat(up.out()).contains("created table cars_q", "created index cars_brand_index");
    // Picostress' vendor keys: PostgreSQL has no engines, tiers or sharding keys, nor a hint
    assertThat(up.out())
        .contains(
            "table cars_q: ignored by PostgreSQL, which has no equivalent: engine: memtx,"
                + " distribution_keys: [id, received], tier: default",
            "index cars_brand_index: ignored by PostgreSQL, which has no equivalent:"
                + " options.hint: true");
    assertThat(indexDefinition("cars_brand_index")).contains("USING btree (brand)");

    CliRun fill = CliRun.of("schema", "fill", WORKLOAD.toString(), "--url", url, "--seed", "3");
    assertThat(fill.exitCode()).as(fill.err()).isZero();
    assertThat(fill.out()).containsPattern("filled cars_q: 100 rows in [0-9.]+ s, [0-9,]+ rows/s");
    assertThat(count("select count(*) from cars_q")).isEqualTo(100);
    assertThat(count("select count(distinct id) from cars_q")).isEqualTo(100);

    CliRun again = CliRun.of("schema", "up", WORKLOAD.toString(), "--url", url);
    assertThat(again.exitCode()).isEqualTo(2);
    assertThat(again.err())
        .contains("cannot create table cars_q", "42P07", "run schema down first");

    CliRun down = CliRun.of("schema", "down", WORKLOAD.toString(), "--url", url);
    assertThat(down.exitCode()).as(down.err()).isZero();
    assertThat(count("select count(*) from pg_tables where tablename = 'cars_q'")).isZero();
  }

  @Test
  void aLongFillPrintsPlainProgressLinesWithoutATerminalThenItsSummary(@TempDir Path dir)
      throws Exception {
    // The plain interval is 10 s; the test hook shortens it (and the 2 s of quiet) to 200 ms so
    // that a fill of a few seconds shows several lines.
    Path workload = dir.resolve("big.yml");
    Files.writeString(
        workload,
        """
        tables_schema:
          - name: progress_t
            row_count: 400000
            columns:
              - {name: id, type: Integer, distribution: Uniform, range: [0, 400000], unique: true}
              - {name: note, type: String, distribution: Uniform, range: [20, 40]}
            primary_keys: [id]
        indexes:
          - {name: progress_note_index, table_name: progress_t, columns_names: [note]}
        """);
    String url = postgres.jdbcUrl();
    System.setProperty(Progress.Settings.INTERVAL_PROPERTY, "200");
    CliRun fill;
    CliRun up;
    try {
      up = CliRun.of("schema", "up", workload.toString(), "--url", url);
      assertThat(up.exitCode()).as(up.err()).isZero();
      // The output is a StringWriter and the test JVM has no terminal: auto means plain.
      fill = CliRun.of("schema", "fill", workload.toString(), "--url", url);
    } finally {
      System.clearProperty(Progress.Settings.INTERVAL_PROPERTY);
      CliRun.of("schema", "down", workload.toString(), "--url", url);
    }
    assertThat(fill.exitCode()).as(fill.err()).isZero();
    assertThat(fill.out()).doesNotContain("\r");
    List<String> lines = fill.out().lines().toList();
    assertThat(lines)
        .last()
        .asString()
        .matches("filled progress_t: 400,000 rows in [0-9.]+ s, [0-9,]+ rows/s");
    List<String> progress = lines.subList(0, lines.size() - 1);
    assertThat(progress)
        .isNotEmpty()
        .allMatch(
            line ->
                line.matches(
                    "filling progress_t: [0-9,]+ of 400,000 rows \\([0-9.]+%\\), [0-9,]+ rows/s,"
                        + " ETA ([0-9]+ s|[0-9]+ min [0-9]+ s|\\?), [0-9]+ s elapsed"),
            "a plain progress line");
    assertThat(up.out()).contains("created index progress_note_index in ");
  }

  @Test
  void withoutADatabaseSchemaSaysWhatToGive() {
    CliRun result = CliRun.of("schema", "up", WORKLOAD.toString());
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().strip())
        .isEqualTo(
            "fusillade: schema up: no database: give --url or a connection section in " + WORKLOAD);
  }

  @Test
  void anUnreachableNodeIsNamedWithItsPasswordMasked() {
    CliRun result =
        CliRun.of(
            "run",
            WORKLOAD.toString(),
            "--url",
            "jdbc:postgresql://127.0.0.1:1/app?password=hunter2");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err())
        .startsWith("fusillade: cannot connect to jdbc:postgresql://127.0.0.1:1/app?password=***")
        .doesNotContain("hunter2", "\tat ");
  }

  @Test
  void aWrongModeIsAUserError() {
    CliRun result = CliRun.of("run", WORKLOAD.toString(), "--mode", "fast");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().strip())
        .isEqualTo("fusillade: --mode must be queue, rate or adaptive, not \"fast\"");
  }
}
