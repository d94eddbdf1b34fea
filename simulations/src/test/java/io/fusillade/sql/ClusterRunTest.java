package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.record.RunRecord;
import io.fusillade.record.SecondCounts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The run record keeps each node's requests and latency, so an imbalance shows. */
@Tag("slow")
class ClusterRunTest {
  @TempDir Path base;

  @ParameterizedTest(name = "{0} engine")
  @ValueSource(strings = {"jdbc", "native"})
  void eachNodesShareIsInTheRunRecord(String engine) throws Exception {
    GatlingFork run = GatlingFork.run(base, ClusterSimulation.class, Map.of("engine", engine));
    assertThat(run.exitCode()).as(run.output()).isZero();
    RunRecord record = run.record();
    int total = ClusterSimulation.RATE * ClusterSimulation.SECONDS;
    assertThat(record.requests().get("one row").okCount()).isEqualTo(total);
    // Gatling got every response too, though they reach its stats engine in batches.
    java.util.regex.Matcher gatlingCount =
        java.util.regex.Pattern.compile("> request count\\s+\\|\\s+(\\d+)").matcher(run.output());
    assertThat(gatlingCount.find()).as(run.output()).isTrue();
    assertThat(Long.parseLong(gatlingCount.group(1))).isEqualTo(total);

    @SuppressWarnings("unchecked")
    List<String> nodes = (List<String>) record.manifest().parameters().get("sql.nodes");
    assertThat(nodes).hasSize(3);
    long[] ok = new long[3];
    for (int i = 0; i < 3; i++) {
      String counter = "sql node " + nodes.get(i) + " ok";
      ok[i] =
          record.seconds().stream()
              .map(SecondCounts::counters)
              .mapToLong(c -> c.getOrDefault(counter, 0L))
              .sum();
      assertThat(record.metrics().get("sql node " + nodes.get(i)).getTotalCount()).isEqualTo(ok[i]);
    }
    assertThat(ok).containsExactly(total / 2, total / 4, total / 4);
    assertThat(record.manifest().parameters())
        .containsEntry("sql.balance", "weighted round robin [2, 1, 1]")
        .containsEntry("sql.engine", engine);
  }
}
