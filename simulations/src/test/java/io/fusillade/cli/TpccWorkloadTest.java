package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.local.LocalPostgres;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import io.fusillade.sql.TpccSimulation;
import io.fusillade.workload.Workload;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OLTP workload derived from TPC-C ({@code workloads/tpcc.yml}) on one embedded PostgreSQL
 * loaded with its one warehouse: every transaction finds and changes its rows, {@code fusillade
 * run} sends the mix from YAML (the native engine), and {@link TpccSimulation} runs the same
 * transactions as terminals from Java (JDBC) and reports New-Order per minute; none fails.
 */
@Tag("slow")
class TpccWorkloadTest {
  private static final List<String> TRANSACTIONS =
      List.of("New-Order", "Payment", "Order-Status", "Delivery", "Stock-Level");

  @TempDir static Path dir;
  private static LocalPostgres postgres;
  private static Workload tpcc;

  @BeforeAll
  static void load() throws Exception {
    postgres = LocalPostgres.start();
    tpcc = StandardWorkloadsTest.load("tpcc.yml");
    WorkloadStatements.load(postgres.jdbcUrl(), tpcc, 1);
  }

  @AfterAll
  static void stop() {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void everyTransactionFindsAndChangesItsRowsAndTheOrdersAddUp() throws Exception {
    long ordersBefore = count("select count(*) from orders");
    long nextBefore = count("select sum(d_next_o_id) from district");
    long queuedBefore = count("select count(*) from new_order");

    Map<String, Long> rows = WorkloadStatements.run(postgres.jdbcUrl(), tpcc, 7, 10);

    assertThat(rows.keySet()).containsExactlyElementsOf(TRANSACTIONS);
    assertThat(rows).allSatisfy((name, n) -> assertThat(n).as(name).isPositive());
    // ten New-Orders: ten orders, each district's next id moved with them; ten Deliveries took
    // the oldest order of each of the ten districts off the queue
    assertThat(count("select count(*) from orders")).isEqualTo(ordersBefore + 10);
    assertThat(count("select sum(d_next_o_id) from district")).isEqualTo(nextBefore + 10);
    assertThat(count("select count(*) from new_order")).isEqualTo(queuedBefore + 10 - 100);
    assertThat(count("select count(*) from order_line where ol_o_id > 3000")).isBetween(50L, 150L);
  }

  @Test
  void fusilladeRunSendsTheMixFromTheYamlWithoutAFailure() throws Exception {
    CliRun run =
        CliRun.of(
            "run",
            StandardWorkloadsTest.WORKLOADS.resolve("tpcc.yml").toString(),
            "--url",
            postgres.jdbcUrl(),
            "--setup",
            "false",
            "--rate",
            "60",
            "--duration",
            "4s",
            "--engine",
            "native",
            "--output",
            dir.resolve("yaml").toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    RunRecord record = WorkloadStatements.record(dir.resolve("yaml"));
    Map<String, RequestTotals> requests = record.requests();
    assertThat(requests.keySet()).containsAll(List.of("New-Order", "Payment"));
    long total = requests.values().stream().mapToLong(RequestTotals::count).sum();
    assertThat(total).isBetween(220L, 260L);
    assertThat(requests.get("New-Order").count()).isBetween(total * 30 / 100, total * 60 / 100);
    assertThat(requests)
        .allSatisfy((name, t) -> assertThat(t.koCount()).as(name + " " + t.errors()).isZero());
  }

  @Test
  void theJavaSimulationsTerminalsRunTheTransactionsAndCountNewOrdersPerMinute() throws Exception {
    Path base = java.nio.file.Files.createDirectories(dir.resolve("java"));
    GatlingFork run =
        GatlingFork.run(
            base,
            TpccSimulation.class,
            Map.of(
                "fusillade.urls",
                postgres.jdbcUrl(),
                "fusillade.user",
                postgres.user(),
                TpccSimulation.TERMINALS,
                "4",
                TpccSimulation.DURATION,
                "3s"));
    assertThat(run.exitCode()).as(run.output()).isZero();
    Map<String, RequestTotals> requests = run.record().requests();
    assertThat(requests.get("New-Order")).as(run.output()).isNotNull();
    assertThat(requests)
        .allSatisfy((name, t) -> assertThat(t.koCount()).as(name + " " + t.errors()).isZero());
    long newOrders = requests.get("New-Order").okCount();
    assertThat(newOrders).isPositive();
    assertThat(run.output())
        .contains(
            "New-Order per minute (tpmC-like, derived from TPC-C; not a TPC-C result): "
                + String.format("%.1f", newOrders / 0.05));
    assertThat(run.record().manifest().parameters())
        .containsEntry("tpcc.terminals", 4)
        .containsKey(TpccSimulation.NEW_ORDERS_PER_MINUTE);
  }

  private static long count(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(postgres.jdbcUrl());
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }
}
