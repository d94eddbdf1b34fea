package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fusillade.local.SeqDbBinary;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade run --target seq-db} of a workload without urls: an embedded seq-db started with
 * the section's own mapping, 20 bulks/s written through the same {@code _bulk} path as OpenSearch,
 * the process frozen for 2 s ({@code pause seq-db for 2s}), time-to-searchable measured, then reads
 * in seq-ql checked against the generator's counts. The stall shows as the bulks' latency, measured
 * from when each was due (no coordinated omission), not as failures.
 */
@Tag("slow")
class RunLogsSeqDbTest {
  // bulks/s of 100 documents: the bulks due during the stall (20) arrive at once on its end, within
  // what seq-db takes in at once (40 answered 429 on a loaded machine)
  private static final int RATE = 10;
  private static final int SECONDS = 8;
  private static final long STALL_MICROS = 2_000_000;

  @TempDir Path dir;

  @BeforeAll
  static void needsTheBinary() {
    if (SeqDbBinary.find(null, System.getenv()).isEmpty()) {
      // CI builds it (.ci/run): there a missing binary is a failure, not a skip
      assertThat(System.getenv("CI")).as(SeqDbBinary.HOW_TO_BUILD).isNull();
      assumeTrue(false, SeqDbBinary.HOW_TO_BUILD);
    }
  }

  @Test
  void aFrozenSeqDbShowsInTheBulksP99AndItsReadsCountWhatTheGeneratorWrote() throws Exception {
    Path file = dir.resolve("w.yml");
    Files.writeString(
        file,
        """
        seed: 9
        logs:
          mapping:
            fields: {status: integer, size: long, request: text, audit_tag: keyword}
          bulk_size: 100
          rate: %d
          duration: %ds
          time_to_searchable: true
          searches:
            - name: errors
              iterations: 2
              seq-db: {query: 'status:in(500, 503)', size: 10}
              expect: {min_hits: 10, count: {status: [500, 503]}}
            - name: count by status
              iterations: 2
              seq-db: {query: '*', aggregate: [{func: count, group_by: status}]}
              expect: {buckets: {group_by: status}}
        faults:
          - at 3s pause seq-db for 2s
        checks: []
        """
            .formatted(RATE, SECONDS));
    Path output = dir.resolve("out");
    CliRun run =
        CliRun.of("run", file.toString(), "--target", "seq-db", "--output", output.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    RunRecord record = RunRecordReader.read(SummaryCommand.resolve(output));

    assertThat(record.manifest().parameters())
        .containsEntry("store", "seq-db")
        .containsEntry("target", "embedded seq-db");
    @SuppressWarnings("unchecked")
    Map<String, Object> server =
        (Map<String, Object>) record.manifest().parameters().get("logs.server");
    assertThat(server).containsEntry("product", "seq-db");
    assertThat((Map<Object, Object>) server.get("mapping"))
        .as("the section's own mapping, written as seq-db's file")
        .containsEntry("audit_tag", "keyword")
        .containsEntry("request", "text");
    assertThat(record.events())
        .filteredOn(e -> e.kind().startsWith("fault-"))
        .extracting(e -> e.kind() + " " + e.detail())
        .containsExactly("fault-start seq-db", "fault-end paused, resumed");

    RequestTotals bulks = record.requests().get("bulk");
    assertThat(bulks.sent()).as("every bulk due was sent").isEqualTo((long) RATE * SECONDS);
    assertThat(bulks.koCount()).as(bulks.errors().toString()).isZero();
    Histogram all = bulks.all();
    System.out.printf(
        "seq-db stall of %d ms: bulk p50 %d ms, p99 %d ms, max %d ms%n",
        STALL_MICROS / 1000,
        all.getValueAtPercentile(50) / 1000,
        all.getValueAtPercentile(99) / 1000,
        all.getMaxValue() / 1000);
    assertThat(all.getValueAtPercentile(99))
        .as("bulk p99, µs")
        .isGreaterThanOrEqualTo(STALL_MICROS * 3 / 4);
    assertThat(all.getValueAtPercentile(50)).as("bulk p50, µs").isLessThan(STALL_MICROS / 4);

    Histogram tts = record.metrics().get("time-to-searchable");
    assertThat(tts).as("time-to-searchable measured on seq-db").isNotNull();
    assertThat(tts.getTotalCount()).isGreaterThanOrEqualTo(3);

    for (String read : new String[] {"errors", "errors total", "count by status"}) {
      RequestTotals totals = record.requests().get(read);
      assertThat(totals).as(read).isNotNull();
      assertThat(totals.okCount()).as(read + " OK").isPositive();
      assertThat(totals.koCount()).as(read + ": " + totals.errors()).isZero();
    }
  }
}
