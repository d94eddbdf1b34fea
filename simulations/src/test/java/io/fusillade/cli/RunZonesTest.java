package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunEvent;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.SecondCounts;
import java.nio.file.Files;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 38's zone-aware balancing through the real {@code fusillade run --balance zone}: the
 * embedded primary is the injector's zone, {@code near}; its streaming replica, reached through the
 * delay proxy that adds 30 ms to each answer, stands for a distant zone, {@code far}. While the
 * primary answers, not one read goes to the far zone; when it is killed, the reads spill over to
 * the replica, whose 30 ms show in the far zone's latency; once the primary is back (the failover
 * probe), the reads come home.
 */
@Tag("slow")
class RunZonesTest {
  @TempDir Path dir;

  @Test
  void readsStayInTheInjectorsZoneAndSpillOverOnlyWhileItsNodeIsDown() throws Exception {
    Path file = dir.resolve("w.yml");
    Files.writeString(
        file,
        """
        tables_schema:
          - name: accounts
            row_count: 100
            columns:
              - {name: id, type: integer, range: [1, 100], unique: true}
              - {name: balance, type: integer, range: [0, 1000]}
            primary_keys: [id]
        queries:
          - name: read
            sql: select balance from accounts where id = $1::integer
            params:
              - {type: integer, range: [1, 100]}
        load: {mode: rate, rate: 100, duration: 10s}
        faults:
          - at 0s delay postgres 2 by 30ms for 20s
          - at 3s kill postgres 1 for 3s
        checks: []
        """);
    Path output = dir.resolve("out");
    CliRun run =
        CliRun.of(
            "run",
            file.toString(),
            "--replicas",
            "1",
            "--node-zones",
            "near,far",
            "--balance",
            "zone",
            "--zone",
            "near",
            "--output",
            output.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();

    RunRecord record = RunRecordReader.read(SummaryCommand.resolve(output));
    assertThat(record.manifest().parameters()).containsEntry("sql.balance", "zone near");
    RunEvent killed = event(record, "fault-start", "kill postgres 1 for 3s");
    RunEvent up =
        record.events().stream()
            .filter(e -> e.kind().equals("node-up") && e.epochMs() > killed.epochMs())
            .findFirst()
            .orElseThrow(() -> new AssertionError("the primary never came back: " + record));
    long farBefore = 0;
    long farDuring = 0;
    long farAfter = 0;
    long near = 0;
    for (SecondCounts second : record.seconds()) {
      long far = count(second, "sql zone far ok") + count(second, "sql zone far ko");
      near += count(second, "sql zone near ok");
      if (second.epochMs() <= killed.epochMs()) {
        farBefore += far; // whole seconds before the kill
      } else if (second.epochMs() - 1_000 >= up.epochMs() + 1_000) {
        farAfter += far; // a second after the node came back
      } else {
        farDuring += far;
      }
    }
    RequestTotals reads = record.requests().get("read");
    System.out.printf(
        "zones: %d reads (%d KO); near %d; far before %d, during %d, after %d; %s%n",
        reads.count(), reads.koCount(), near, farBefore, farDuring, farAfter, record.events());
    assertThat(farBefore).as("reads to the far zone while the near one answered").isZero();
    assertThat(farDuring).as("reads spilled over while the near node was down").isGreaterThan(150);
    assertThat(farAfter).as("reads to the far zone once the near one was back").isZero();
    assertThat(near).as("reads in the near zone").isGreaterThan(300);
    assertThat(reads.koCount()).as("only reads in flight on the killed node").isLessThan(20);
    Histogram far = record.metrics().get("sql zone far");
    Histogram home = record.metrics().get("sql zone near");
    assertThat(far.getValueAtPercentile(50) / 1000.0).as("far zone p50, ms").isGreaterThan(30);
    assertThat(home.getValueAtPercentile(50) / 1000.0).as("near zone p50, ms").isLessThan(15);
    CliRun summary = CliRun.of("summary", record.directory().toString());
    assertThat(summary.out())
        .containsPattern("sql zone far +" + far.getTotalCount() + " ")
        .containsPattern("sql zone near +" + home.getTotalCount() + " ");
  }

  private static long count(SecondCounts second, String counter) {
    return second.counters().getOrDefault(counter, 0L);
  }

  private static RunEvent event(RunRecord record, String kind, String target) {
    return record.events().stream()
        .filter(e -> e.kind().equals(kind) && e.target().equals(target))
        .findFirst()
        .orElseThrow(() -> new AssertionError(kind + " " + target + " in " + record.events()));
  }
}
