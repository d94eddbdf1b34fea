package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgres;
import io.fusillade.record.RequestTotals;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadLoader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * YCSB's core workloads A to F ({@code workloads/ycsb/}) at scale 0.01 (1,000 records), each in a
 * database of its own on one embedded PostgreSQL: every operation finds its records (reads, scans)
 * or writes them (updates, inserts, read-modify-writes), and {@code fusillade run} sends workload
 * F, whose read-modify-write is a transaction, without a failure.
 */
@Tag("slow")
class YcsbWorkloadsTest {
  private static final long SEED = 5;
  @TempDir static Path dir;
  private static LocalPostgres postgres;

  @BeforeAll
  static void start() {
    System.setProperty(WorkloadLoader.SCALE_PROPERTY, "0.01");
    postgres = LocalPostgres.start();
  }

  @AfterAll
  static void stop() {
    System.clearProperty(WorkloadLoader.SCALE_PROPERTY);
    if (postgres != null) {
      postgres.close();
    }
  }

  @ParameterizedTest(name = "workload {0}")
  @ValueSource(strings = {"a", "b", "c", "d", "e", "f"})
  void everyOperationOfTheWorkloadFindsOrWritesItsRecords(String letter) throws Exception {
    Workload workload = StandardWorkloadsTest.load("ycsb/" + letter + ".yml");
    String url = WorkloadStatements.database(postgres, "ycsb_" + letter);
    WorkloadStatements.load(url, workload, SEED);

    Map<String, Long> rows = WorkloadStatements.run(url, workload, SEED, 20);

    for (Map.Entry<String, Long> op : rows.entrySet()) {
      switch (op.getKey()) {
        // each read finds its record; a read-modify-write reads it and writes it back
        case "read", "update", "insert" -> assertThat(op.getValue()).as(op.getKey()).isEqualTo(20);
        case "read-modify-write" -> assertThat(op.getValue()).as(op.getKey()).isEqualTo(40);
        case "scan" -> assertThat(op.getValue()).as(op.getKey()).isBetween(20L, 2000L);
        default -> throw new AssertionError("an operation YCSB has not: " + op.getKey());
      }
    }
    if (rows.containsKey("insert")) {
      assertThat(count(url, "select count(*) from usertable")).isEqualTo(1000 + 20);
    }
  }

  @Test
  void fusilladeRunSendsWorkloadFWithoutAFailure() throws Exception {
    Workload f = StandardWorkloadsTest.load("ycsb/f.yml");
    String url = WorkloadStatements.database(postgres, "ycsb_run");
    WorkloadStatements.load(url, f, SEED);
    CliRun run =
        CliRun.of(
            "run",
            StandardWorkloadsTest.WORKLOADS.resolve("ycsb/f.yml").toString(),
            "--url",
            url,
            "--setup",
            "false",
            "--rate",
            "200",
            "--duration",
            "3s",
            "--output",
            dir.resolve("f").toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    Map<String, RequestTotals> requests = WorkloadStatements.record(dir.resolve("f")).requests();
    assertThat(requests.keySet()).contains("read", "read-modify-write");
    assertThat(requests.get("read").count() + requests.get("read-modify-write").count())
        .isEqualTo(600);
    assertThat(requests)
        .allSatisfy((name, t) -> assertThat(t.koCount()).as(name + " " + t.errors()).isZero());
  }

  private static long count(String url, String sql) throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }
}
