package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgres;
import io.fusillade.record.RequestTotals;
import io.fusillade.scenarios.sql.SqlLadderRun;
import io.fusillade.workload.Query;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analytical workload derived from TPC-DS ({@code workloads/tpcds.yml}) at scale 0.01 on one
 * embedded PostgreSQL: every one of its queries runs and returns rows, and a ladder of {@code
 * --queries lite,ds05} runs exactly that set in the Gatling JVM.
 */
@Tag("slow")
class TpcdsWorkloadTest {
  @TempDir static Path dir;
  private static LocalPostgres postgres;
  private static Workload tpcds;

  @BeforeAll
  static void load() throws Exception {
    System.setProperty(WorkloadLoader.SCALE_PROPERTY, "0.01");
    postgres = LocalPostgres.start();
    tpcds = StandardWorkloadsTest.load("tpcds.yml");
    WorkloadStatements.load(postgres.jdbcUrl(), tpcds, tpcds.seed().orElseThrow());
  }

  @AfterAll
  static void stop() {
    System.clearProperty(WorkloadLoader.SCALE_PROPERTY);
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void everyQueryRunsAndReturnsRows() throws Exception {
    Map<String, Long> rows =
        WorkloadStatements.run(postgres.jdbcUrl(), tpcds, tpcds.seed().orElseThrow(), 5);

    assertThat(rows).hasSize(tpcds.queries().size());
    assertThat(rows).allSatisfy((name, n) -> assertThat(n).as(name).isPositive());
  }

  @Test
  void aLadderOfASelectedSetRunsThatSetInTheGatlingJvm() throws Exception {
    CliRun run =
        CliRun.of(
            "ladder",
            StandardWorkloadsTest.WORKLOADS.resolve("tpcds.yml").toString(),
            "--queries",
            "lite,ds05",
            "--levels",
            "1",
            "--repeats",
            "1",
            "--url",
            postgres.jdbcUrl(),
            "--setup",
            "false",
            "--engine",
            "native",
            "--output",
            dir.resolve("ladder").toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();

    List<String> expected = new ArrayList<>();
    for (Query q : tpcds.queries()) {
      if (q.tags().contains("lite") || q.name().startsWith("ds05 ")) {
        expected.add(q.name());
      }
    }
    Map<String, RequestTotals> requests =
        WorkloadStatements.record(dir.resolve("ladder")).requests();
    List<String> sent = new ArrayList<>(requests.keySet());
    sent.removeAll(List.of(SqlLadderRun.SET, SqlLadderRun.WARM_UP));
    assertThat(sent).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(requests)
        .allSatisfy((name, t) -> assertThat(t.koCount()).as(name + " " + t.errors()).isZero());
    assertThat(run.out()).contains("ds05 customers growing year over year").doesNotContain("ds06");
  }
}
