package io.fusillade.scenarios.logs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.gatling.logs.LogsComponents;
import io.fusillade.logs.SearchabilityProbe;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunSettings;
import io.fusillade.record.RunStatus;
import io.fusillade.record.SecondCounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documented example {@code web-logs.yml} through {@link LogsRun} in a forked Gatling, as
 * {@code fusillade run} forks it, on the embedded OpenSearch the run starts itself: 20,000
 * documents in 4 bulks, the refresh, then two searches that find hits; the time-to-searchable probe
 * ran beside it. And an ingest in stages: a ramp and a hold of bulks, recorded as stages.
 */
@Tag("slow")
class LogsRunTest {
  static final Path WORKLOAD =
      Path.of("src/test/resources/workloads/web-logs.yml").toAbsolutePath();

  @TempDir Path base;

  @Test
  void theExampleIngestsItsDocumentsThenSearchesThem() throws Exception {
    GatlingFork run =
        GatlingFork.run(
            base, LogsRun.class, RunSettings.NONE.withWorkload(WORKLOAD).toSystemProperties());

    assertThat(run.exitCode()).as(run.output()).isZero();
    RunRecord record = run.record();
    assertThat(record).as(run.output()).isNotNull();
    assertThat(record.manifest().status()).isEqualTo(RunStatus.COMPLETED);

    RequestTotals bulks = record.requests().get("bulk");
    assertThat(bulks).as(run.output()).isNotNull();
    assertThat(bulks.okCount()).isEqualTo(4);
    assertThat(bulks.koCount()).as(bulks.errors().toString()).isZero();
    long documents = 0;
    for (SecondCounts s : record.seconds()) {
      documents += s.counters().getOrDefault(LogsComponents.DOCUMENTS, 0L);
    }
    assertThat(documents).isEqualTo(20_000);

    // A search is OK only when it finds hits (status in) or buckets (count by status).
    RequestTotals statusIn = record.requests().get("status in");
    assertThat(statusIn).as(run.output()).isNotNull();
    assertThat(statusIn.okCount()).isPositive();
    assertThat(statusIn.koCount()).as(statusIn.errors().toString()).isZero();
    RequestTotals counts = record.requests().get("count by status");
    assertThat(counts.okCount()).isEqualTo(2 * 3);
    assertThat(counts.koCount()).as(counts.errors().toString()).isZero();
    assertThat(record.requests().keySet())
        .containsExactlyInAnyOrder("bulk", "status in", "count by status");

    assertThat(record.metrics().get(SearchabilityProbe.METRIC).getTotalCount()).isPositive();
    assertThat(record.manifest().parameters())
        .containsEntry("mode", "logs")
        .containsEntry("target", "embedded")
        .containsEntry("index", "web-logs")
        .containsEntry("docs", 20_000)
        .containsEntry("seed", 42)
        .containsEntry("searches", List.of("status in", "count by status"));
  }

  @Test
  void stagesIngestAsRampsAndHoldsAndAreRecorded() throws Exception {
    Path workload = base.resolve("staged-logs.yml");
    Files.writeString(
        workload,
        """
        seed: 7
        logs:
          bulk_size: 100
          stages:
            - {ramp: 0..4, over: 2s}   # (0 + 4) / 2 x 2 s = 4 bulks
            - {hold: 4, for: 2s}       # 8 bulks
        """);
    GatlingFork run =
        GatlingFork.run(
            base, LogsRun.class, RunSettings.NONE.withWorkload(workload).toSystemProperties());

    assertThat(run.exitCode()).as(run.output()).isZero();
    RunRecord record = run.record();
    RequestTotals bulks = record.requests().get("bulk");
    assertThat(bulks).as(run.output()).isNotNull();
    assertThat(bulks.okCount()).isEqualTo(12);
    assertThat(bulks.koCount()).as(bulks.errors().toString()).isZero();
    assertThat(record.manifest().parameters())
        .containsEntry("mode", "logs")
        .containsEntry(
            "stages",
            List.of(
                Map.of("from", 0, "to", 4, "seconds", 2),
                Map.of("from", 4, "to", 4, "seconds", 2)));
  }
}
