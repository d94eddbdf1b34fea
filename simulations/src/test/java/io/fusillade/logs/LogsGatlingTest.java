package io.fusillade.logs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunStatus;
import io.fusillade.record.SecondCounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checks, through Gatling's own launcher in forked JVMs (as {@code mvn gatling:test}
 * runs), against the suite's {@link SharedOpenSearch} node (its index recreated by the ingest).
 *
 * <p>The ingest is 50,000 documents, ten rounds of the two users' bulks of 5,000: every count
 * exact, as at the 1,000,000 ({@code -Dfusillade.logs.testDocs=1000000}, 70 s in the suite,
 * which twenty times the documents prove nothing more about), and more than the searches reach
 * (offset paging to 10,000, the range pages' 5,000). It runs once for the class, before the tests,
 * because two of them need it: one checks what it stored, the other searches it. The tests run in
 * any order.
 */
@Tag("slow")
class LogsGatlingTest {
  static final long DOCS = Long.getLong("fusillade.logs.testDocs", 50_000);
  static final long SEED = 42;

  @TempDir static Path base;
  static String nodeUrl;
  static LogsClient client;

  /** The run of the shared ingest, into index {@code web-logs}. */
  static RunRecord ingest;

  @BeforeAll
  static void startNodeAndIngest() throws Exception {
    startNode();
    ingest =
        run(
            LogIngestSimulation.class,
            "logs.docs=" + DOCS,
            "logs.bulk=5000",
            "logs.concurrency=2",
            "logs.seed=" + SEED,
            "logs.index=web-logs");
    // Searchable for the searches, whichever test comes first.
    client.refresh("web-logs");
  }

  /** Opens {@link #client} on the suite's shared node. */
  private static void startNode() {
    nodeUrl = SharedOpenSearch.url();
    client = LogsClient.open(LogsClientOptions.of(nodeUrl));
  }

  @AfterAll
  static void closeClient() {
    if (client != null) {
      client.close();
    }
  }

  static RunRecord run(Class<?> simulation, String... properties) throws Exception {
    Path dir = Files.createTempDirectory(base, "run");
    Map<String, String> values = new LinkedHashMap<>();
    values.put("logs.url", nodeUrl);
    for (String p : properties) {
      int eq = p.indexOf('=');
      values.put(p.substring(0, eq), p.substring(eq + 1));
    }
    GatlingFork run =
        GatlingFork.run(
            GatlingFork.launcher(dir, simulation)
                .withHeap("512m")
                .withTimeout(Duration.ofMinutes(4))
                .withProperties(values));
    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.record()).as(run.output()).isNotNull();
    assertThat(run.record().manifest().status()).isEqualTo(RunStatus.COMPLETED);
    return run.record();
  }

  static long counterTotal(RunRecord record, String name) {
    long total = 0;
    for (SecondCounts s : record.seconds()) {
      total += s.counters().getOrDefault(name, 0L);
    }
    return total;
  }

  @Test
  void ingestStoresExactlyTheDocumentsAndTheStatusCountsOfTheGenerator() throws Exception {
    RequestTotals bulks = ingest.requests().get("bulk");
    assertThat(bulks.okCount()).isEqualTo(DOCS / 5000);
    assertThat(bulks.koCount()).isZero();
    assertThat(counterTotal(ingest, "logs.documents")).isEqualTo(DOCS);

    client.refresh("web-logs");
    assertThat(client.count("web-logs")).isEqualTo(DOCS);
    WebLogs web = new WebLogs(SEED);
    Map<String, Long> expected = new HashMap<>();
    for (long i = 0; i < DOCS; i++) {
      expected.merge(Integer.toString(web.status(i)), 1L, Long::sum);
    }
    assertThat(client.termCounts("web-logs", "status")).isEqualTo(expected);
  }

  @Test
  void theSixSearchesReturnHits() throws Exception {
    RunRecord record =
        run(
            LogSearchSimulation.class,
            "logs.docs=" + DOCS,
            "logs.seed=" + SEED,
            "logs.index=web-logs",
            "logs.search.duration=2s");
    for (String name : LogSearches.NAMES) {
      RequestTotals totals = record.requests().get(name);
      assertThat(totals).as(name).isNotNull();
      assertThat(totals.okCount()).as(name).isPositive();
      assertThat(totals.koCount()).as(name + ": " + totals.errors()).isZero();
    }
    assertThat(record.requests().get("count by status").okCount()).isEqualTo(10);
    assertThat(record.requests().get("min size by status").okCount()).isEqualTo(5);
  }

  @Test
  void badDocumentsAreCountedAsFailedItemsAndTimeToSearchableIsMeasured() throws Exception {
    RunRecord record = run(LogChecksSimulation.class);

    RequestTotals bad = record.requests().get("bad bulk");
    assertThat(bad.koCount()).isEqualTo(LogChecksSimulation.BAD_BULKS);
    assertThat(bad.errors().keySet())
        .containsExactly("bulk items failed: mapper_parsing_exception");
    long badDocs =
        (long) LogChecksSimulation.BAD_BULKS
            * LogChecksSimulation.BULK
            / LogChecksSimulation.BAD_EVERY;
    assertThat(counterTotal(record, "logs.failedItems")).isEqualTo(badDocs);
    assertThat(counterTotal(record, "logs.failed.mapper_parsing_exception")).isEqualTo(badDocs);
    // the run went on
    assertThat(record.requests().get("good bulk").okCount())
        .isEqualTo(LogChecksSimulation.GOOD_BULKS);
    client.refresh("bad-docs");
    assertThat(client.count("bad-docs"))
        .isEqualTo(
            (long) (LogChecksSimulation.BAD_BULKS + LogChecksSimulation.GOOD_BULKS)
                    * LogChecksSimulation.BULK
                - badDocs);

    Histogram tts = record.metrics().get(SearchabilityProbe.METRIC);
    assertThat(tts.getTotalCount()).isGreaterThanOrEqualTo(8);
    double medianSeconds = tts.getValueAtPercentile(50) / 1e6;
    assertThat(medianSeconds).isBetween(0.2, 1.5);
    // the markers were deleted at the end: the index holds the load's documents only
    client.refresh("tts");
    RequestTotals load = record.requests().get("tts load");
    assertThat(client.count("tts")).isEqualTo(load.okCount() * 200);
  }
}
