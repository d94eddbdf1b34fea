package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.logs.LogsComponents;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunEvent;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.SecondCounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15's "3-node OpenSearch cluster with one replica per shard" through the real {@code
 * fusillade run --nodes 3}: bulks go to the three nodes in turn; when node 2 is killed for 4 s,
 * only the bulks in flight on it fail, the others go to the live nodes, and no document of an
 * acknowledged bulk is refused (the replicas of its shards take over). Node 3's answers delayed 300
 * ms for 2 s make its bulks of those seconds that much slower.
 */
// Timed: its claim is how many bulks a killed node of three slows, which another test's load would
// raise (see cli-tests' pom).
@Tag("timed")
@Tag("slow")
class RunLogsClusterTest {
  @TempDir Path dir;

  @Test
  void aKilledNodeOfThreeCostsOnlyItsBulksInFlight() throws Exception {
    Path file = dir.resolve("w.yml");
    Files.writeString(
        file,
        """
        logs:
          mapping: web-logs
          shards: 3
          replicas: 1
          bulk_size: 100
          rate: 20
          duration: 18s
        faults:
          - at 4s kill opensearch 2 for 4s
          - at 13s delay opensearch 3 by 300ms for 2s
        """);
    Path output = dir.resolve("out");
    CliRun run = CliRun.of("run", file.toString(), "--nodes", "3", "--output", output.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isIn(0, 3);

    // the bulks answered 300 ms late or more from 12 s on: after the first bulks' warm-up, the
    // kill and node 2's recovery, so those of node 3's delay alone
    long[] slow = new long[1];
    RunRecord record =
        RunRecordReader.read(
            SummaryCommand.resolve(output),
            (tag, start, length, histogram) -> {
              if (tag.equals("req/OK/bulk") && start >= 12) {
                slow[0] += histogram.getTotalCount() - histogram.getCountBetweenValues(0, 299_000);
              }
            });
    assertThat(record.manifest().parameters()).containsEntry("target", "embedded");
    RequestTotals bulks = record.requests().get("bulk");
    assertThat(bulks.count()).isEqualTo(20 * 18);
    assertThat(bulks.koCount())
        .as("bulks in flight on the killed node: %s", bulks.errors())
        .isLessThan(10);
    long documents = 0;
    long failed = 0;
    long rejected = 0;
    for (SecondCounts second : record.seconds()) {
      documents += second.counters().getOrDefault(LogsComponents.DOCUMENTS, 0L);
      failed += second.counters().getOrDefault(LogsComponents.FAILED, 0L);
      rejected += second.counters().getOrDefault(LogsComponents.REJECTED, 0L);
    }
    assertThat(rejected).as("documents refused inside acknowledged bulks").isZero();
    assertThat(documents).isEqualTo(100 * bulks.okCount());
    assertThat(failed).as("the documents of the failed bulks").isEqualTo(100 * bulks.koCount());
    assertThat(run.out() + run.err())
        .as("no OpenSearch stack trace on the console")
        .doesNotContain("\tat org.opensearch");
    assertThat(record.events())
        .extracting(e -> e.kind() + " " + e.detail())
        .contains(
            "fault-start opensearch 2",
            "fault-end killed, started again",
            "fault-start opensearch 3",
            "fault-end delayed 300 ms, then not");
    // node 3 answers 300 ms later for 2 s: its third of those seconds' 40 bulks
    assertThat(slow[0]).as("bulks of 300 ms or more after 12 s").isBetween(9L, 18L);
    List<RunEvent> nodeEvents =
        record.events().stream().filter(e -> e.kind().startsWith("node-")).toList();
    assertThat(nodeEvents).extracting(RunEvent::kind).containsExactly("node-down", "node-up");
    assertThat(nodeEvents.get(0).target()).isEqualTo(nodeEvents.get(1).target());
    System.out.printf(
        "3 OpenSearch nodes, node 2 killed for 4 s, node 3 delayed 300 ms for 2 s: %d bulks OK,"
            + " %d KO %s, %d of 300 ms or more after 12 s; %s%n",
        bulks.okCount(), bulks.koCount(), bulks.errors(), slow[0], record.events());
  }
}
