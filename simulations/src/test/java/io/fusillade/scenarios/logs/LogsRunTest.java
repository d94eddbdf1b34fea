package io.fusillade.scenarios.logs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.gatling.logs.LogsComponents;
import io.fusillade.logs.SearchabilityProbe;
import io.fusillade.logs.SharedOpenSearch;
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
 * {@code fusillade run} forks it: 20,000 documents in 4 bulks, the refresh, then two searches that
 * find hits; the time-to-searchable probe ran beside it. And an ingest in stages: a ramp and a hold
 * of bulks, recorded as stages. On the suite's {@link SharedOpenSearch} node, each run recreating
 * its index (the embedded node a run starts itself: {@code LimitCommandTest}, {@code
 * RunSignalsTest}, the quickstart).
 */
@Tag("slow")
class LogsRunTest {
  static final Path WORKLOAD =
      Path.of("src/test/resources/workloads/web-logs.yml").toAbsolutePath();

  @TempDir Path base;

  /** The run's settings with the shared node as its store. */
  private static Map<String, String> on(RunSettings settings) {
    return settings.withUrls(List.of(SharedOpenSearch.url())).toSystemProperties();
  }

  @Test
  void theExampleIngestsItsDocumentsThenSearchesThem() throws Exception {
    GatlingFork run =
        GatlingFork.run(base, LogsRun.class, on(RunSettings.NONE.withWorkload(WORKLOAD)));

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
    // the file's own read: 10 hits each time, and as many errors as the generator wrote
    RequestTotals errors = record.requests().get("errors");
    assertThat(errors.okCount()).isEqualTo(3);
    assertThat(errors.koCount()).as(errors.errors().toString()).isZero();
    RequestTotals counted = record.requests().get("errors total");
    assertThat(counted.okCount()).as(counted.errors().toString()).isEqualTo(1);
    assertThat(record.requests().keySet())
        .containsExactlyInAnyOrder(
            "bulk", "status in", "count by status", "errors", "errors total");

    assertThat(record.metrics().get(SearchabilityProbe.METRIC).getTotalCount()).isPositive();
    assertThat(record.manifest().parameters())
        .containsEntry("mode", "logs")
        .containsEntry("target", List.of(SharedOpenSearch.url()))
        .containsEntry("index", "web-logs")
        .containsEntry("docs", 20_000)
        .containsEntry("seed", 42)
        .containsEntry("searches", List.of("status in", "count by status", "errors"));
  }

  @Test
  void injectedBulksFailUnderTheirOwnNamesWithinTheirWindow() throws Exception {
    Path workload = base.resolve("injected-logs.yml");
    Files.writeString(
        workload,
        """
        seed: 7
        logs:
          bulk_size: 100
          mapping: web-logs
          rate: 30
          duration: 6s
        injected:
          - {kind: mapping violation, share: 20%, from: 2s, for: 2s}
          - {kind: malformed bulk, share: 10%}
          - {kind: malformed bulk, rate: 5, from: 1s, for: 2s}
        """);
    GatlingFork run =
        GatlingFork.run(base, LogsRun.class, on(RunSettings.NONE.withWorkload(workload)));

    assertThat(run.exitCode()).as(run.output()).isZero();
    RunRecord record = run.record();
    Map<String, RequestTotals> requests = record.requests();
    assertThat(requests)
        .as(run.output())
        .containsOnlyKeys("bulk", "injected mapping violation", "injected malformed bulk");
    RequestTotals bulks = requests.get("bulk");
    RequestTotals violation = requests.get("injected mapping violation");
    RequestTotals malformed = requests.get("injected malformed bulk");
    // 180 arrivals: the injected kinds take theirs, the bulks the rest, and none is lost; the
    // kind at a rate sends 5/s for 2 s beside them
    assertThat(bulks.count() + violation.count() + malformed.count()).isEqualTo(180 + 10);
    assertThat(bulks.koCount()).as(bulks.errors().toString()).isZero();
    assertThat(violation.koCount()).isEqualTo(violation.count()).isGreaterThan(2);
    assertThat(violation.errors().keySet())
        .as(violation.errors().toString())
        .allMatch(r -> r.contains("parsing_exception"));
    assertThat(malformed.koCount()).isEqualTo(malformed.count()).isGreaterThan(10);
    assertThat(malformed.errors().keySet())
        .as(malformed.errors().toString())
        .allMatch(r -> r.contains("HTTP 400"));
    // the injected documents are no documents of the workload
    long documents = 0;
    double first = Double.MAX_VALUE;
    double last = 0;
    for (SecondCounts s : record.seconds()) {
      documents += s.counters().getOrDefault(LogsComponents.DOCUMENTS, 0L);
      SecondCounts.RequestSecond v = s.requests().get("injected mapping violation");
      if (v != null && v.sent() > 0) {
        first = Math.min(first, s.elapsedSeconds());
        last = Math.max(last, s.elapsedSeconds());
      }
    }
    assertThat(documents).isEqualTo(100 * bulks.okCount());
    // sent from 2 s to 4 s of the load, which began within the run's first seconds
    assertThat(last - first).as("seconds with mapping violations").isLessThanOrEqualTo(3.0);
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
        GatlingFork.run(base, LogsRun.class, on(RunSettings.NONE.withWorkload(workload)));

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
