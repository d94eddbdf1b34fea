package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunFiles;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped analytical workload derived from TPC-H ({@code workloads/tpch.yml}): its row counts
 * follow the scale factor, and at scale 0.01 on the embedded PostgreSQL one session of {@code
 * fusillade ladder} loads it and runs each of its queries once, every one OK.
 */
@Tag("slow")
class TpchWorkloadTest {
  private static final Path TPCH = Path.of("..", "workloads", "tpch.yml");

  @TempDir Path dir;

  @AfterEach
  void clearScale() {
    System.clearProperty(WorkloadLoader.SCALE_PROPERTY);
  }

  @Test
  void rowCountsAndKeyRangesFollowTheScaleFactor() {
    Workload tenth = WorkloadLoader.load(TPCH).orThrow();
    assertThat(tenth.table("lineitem").orElseThrow().rowCount()).isEqualTo(600_000);
    assertThat(tenth.table("orders").orElseThrow().rowCount()).isEqualTo(150_000);
    assertThat(tenth.table("region").orElseThrow().rowCount()).isEqualTo(5);
    System.setProperty(WorkloadLoader.SCALE_PROPERTY, "1");
    Workload one = WorkloadLoader.load(TPCH).orThrow();
    assertThat(one.table("lineitem").orElseThrow().rowCount()).isEqualTo(6_000_000);
    assertThat(one.table("supplier").orElseThrow().rowCount()).isEqualTo(10_000);
    assertThat(one.queries()).hasSizeGreaterThanOrEqualTo(10);
  }

  @Test
  void everyQueryRunsOnTheLoadedWorkloadAtScaleOneHundredth() throws Exception {
    System.setProperty(WorkloadLoader.SCALE_PROPERTY, "0.01");
    Path output = dir.resolve("out");
    CliRun run =
        CliRun.of(
            "ladder",
            TPCH.toString(),
            "--levels",
            "1",
            "--repeats",
            "1",
            "--engine",
            "native",
            "--output",
            output.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    RunRecord record;
    try (Stream<Path> ladders = Files.list(output);
        Stream<Path> runs =
            Files.list(
                ladders
                    .filter(p -> p.getFileName().toString().startsWith("ladder-"))
                    .findFirst()
                    .get())) {
      record =
          RunRecordReader.read(
              runs.filter(p -> Files.isRegularFile(p.resolve(RunFiles.MANIFEST)))
                  .findFirst()
                  .get());
    }
    Workload workload = WorkloadLoader.load(TPCH).orThrow();
    List<String> names = workload.queries().stream().map(q -> q.name()).toList();
    Map<String, RequestTotals> requests = record.requests();
    assertThat(requests.keySet()).containsAll(names);
    assertThat(names)
        .allSatisfy(
            name -> {
              RequestTotals totals = requests.get(name);
              assertThat(totals.count()).as(name).isEqualTo(1);
              assertThat(totals.koCount()).as(name + ": " + totals.errors()).isZero();
            });
    assertThat(run.out()).contains("Q1 pricing summary", "Q18 large volume customer", "query set");
  }
}
