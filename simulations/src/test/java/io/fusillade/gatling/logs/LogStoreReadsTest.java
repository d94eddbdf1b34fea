package io.fusillade.gatling.logs;

import static io.fusillade.gatling.logs.LogsDsl.bucketCounts;
import static io.fusillade.gatling.logs.LogsDsl.bucketValues;
import static io.fusillade.gatling.logs.LogsDsl.errorCode;
import static io.fusillade.gatling.logs.LogsDsl.hits;
import static io.fusillade.gatling.logs.LogsDsl.jsonPath;
import static io.fusillade.gatling.logs.LogsDsl.logs;
import static io.fusillade.gatling.logs.LogsDsl.total;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.TestSessions;
import io.fusillade.gatling.check.Checks;
import io.fusillade.gatling.check.Saves;
import io.fusillade.local.LocalSeqDb;
import io.fusillade.local.SeqDbBinary;
import io.fusillade.logs.BulkBodies;
import io.fusillade.logs.BulkResult;
import io.fusillade.logs.IndexSpec;
import io.fusillade.logs.JsonBuffer;
import io.fusillade.logs.LogStore;
import io.fusillade.logs.LogsClient;
import io.fusillade.logs.LogsClientOptions;
import io.fusillade.logs.SearchResult;
import io.fusillade.logs.SeqDbAggregation;
import io.fusillade.logs.SeqDbMappings;
import io.fusillade.logs.SeqDbQuery;
import io.fusillade.logs.SharedOpenSearch;
import io.fusillade.logs.WebLogTally;
import io.fusillade.logs.WebLogs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Each kind of read, written with the DSL once per store (the query DSL for OpenSearch, seq-ql for
 * seq-db), answered by a real OpenSearch and a real seq-db holding the same 20,000 seeded web
 * documents, and checked with the DSL's own checks against the generator's counts: a page, a status
 * filter's total, a phrase's total, the documents per status, the least size per status, a time
 * range's total. And a search that seq-db answers with an error code (HTTP 200) is a KO with that
 * code as its reason.
 */
@Tag("slow")
class LogStoreReadsTest {
  private static final int DOCS = 20_000;
  private static final long SEED = 5;
  private static final String INDEX = "web";
  private static final WebLogs WEB = new WebLogs(SEED);
  private static final IndexSpec SPEC = IndexSpec.preset(INDEX, "web-logs");

  private static LocalSeqDb seqDb;
  private static LogsClient es;
  private static LogsClient sq;

  @BeforeAll
  static void twoStoresWithTheSameDocuments() {
    if (SeqDbBinary.find(null, System.getenv()).isEmpty()) {
      // CI builds it (.ci/run): there a missing binary is a failure, not a skip
      assertThat(System.getenv("CI")).as(SeqDbBinary.HOW_TO_BUILD).isNull();
      assumeTrue(false, SeqDbBinary.HOW_TO_BUILD);
    }
    seqDb = LocalSeqDb.builder().mapping(SeqDbMappings.yaml(SPEC)).start();
    // the suite's shared node: the index is recreated below
    es = LogsClient.open(LogsClientOptions.of(SharedOpenSearch.url()));
    sq = LogsClient.open(LogsClientOptions.of(seqDb.baseUrl()).withStore(LogStore.SEQ_DB));
    es.createIndex(SPEC, true);
    sq.createIndex(SPEC, true); // nothing to do on seq-db: its mapping is the file it started with
    for (LogsClient client : List.of(es, sq)) {
      for (int first = 0; first < DOCS; first += 5_000) {
        JsonBuffer body = new JsonBuffer(1 << 20);
        BulkBodies.append(WEB, first, 5_000, body);
        BulkResult r = client.bulk(INDEX, body, false, 5_000).join();
        assertThat(r.ok()).as(String.valueOf(r.reason())).isTrue();
      }
      client.refresh(INDEX);
    }
    // seq-db makes a bulk searchable when it seals its fraction (within a second or so), not on
    // a refresh: every test reads all the documents, whichever runs first
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (sq.count(INDEX) < DOCS && System.nanoTime() < deadline) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable c : new AutoCloseable[] {es, sq, seqDb}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception ignored) {
        // the next one
      }
    }
  }

  /** The reason the read is KO, or null when OK: what the run would record. */
  private static String ask(LogsReadBuilder<?> read, LogsClient client) {
    LogsSearch s = read.search();
    io.gatling.core.session.Session session = TestSessions.with("offset", 300);
    SearchResult r =
        client.options().store() == LogStore.SEQ_DB
            ? client.seqDb(s.seqDb().resolve(session)).join()
            : client.search(INDEX, s.body().resolve(session), s.queryString()).join();
    Checks<SearchResult> checks = Checks.<SearchResult>none().and(s.checks());
    return SearchAction.verdict(checks, SearchAction.readsError(checks), r, session, new Saves());
  }

  @Test
  void aPageOfDocumentsIsFull() {
    assertThat(ask(logs("page").seqql("*").size(100).offset("#{offset}").check(hits().is(100)), sq))
        .isNull();
    assertThat(
            ask(
                logs("page")
                    .search(
                        Expression.text(
                            "{\"query\":{\"match_all\":{}},\"from\":#{offset},\"size\":100}"))
                    .check(hits().is(100), jsonPath("$.hits.hits[99]._source.status").exists()),
                es))
        .isNull();
  }

  @Test
  void filtersCountWhatTheGeneratorCounts() {
    WebLogTally.Count errors = WebLogTally.count("status", List.of("500", "400", "403"));
    WebLogTally.Count phrase = WebLogTally.count("request", List.of(WebLogs.TOP_REQUEST));
    WebLogTally.run(WEB, DOCS, List.of(errors, phrase));
    assertThat(errors.result()).isPositive();
    assertThat(phrase.result()).isPositive();

    assertThat(
            ask(
                logs("status in")
                    .seqql("status:in(500, 400, 403)")
                    .withTotal()
                    .check(total().is(errors.result())),
                sq))
        .isNull();
    assertThat(
            ask(
                logs("status in")
                    .search("{\"query\":{\"terms\":{\"status\":[500,400,403]}},\"size\":10}")
                    .queryString("track_total_hits=true")
                    .check(total().is(errors.result())),
                es))
        .isNull();
    assertThat(
            ask(
                logs("phrase")
                    .seqql("request:\"" + WebLogs.TOP_REQUEST + "\"")
                    .withTotal()
                    .check(total().is(phrase.result())),
                sq))
        .isNull();
    assertThat(
            ask(
                logs("phrase")
                    .search(
                        "{\"query\":{\"match_phrase\":{\"request\":\""
                            + WebLogs.TOP_REQUEST
                            + "\"}},\"size\":10}")
                    .queryString("track_total_hits=true")
                    .check(total().is(phrase.result())),
                es))
        .isNull();
    // a count one off is a KO that says both numbers
    assertThat(
            ask(
                logs("status in")
                    .seqql("status:in(500, 400, 403)")
                    .withTotal()
                    .check(total().is(errors.result() + 1)),
                sq))
        .isEqualTo("total.is(" + (errors.result() + 1) + "): found " + errors.result());
  }

  @Test
  void aggregationsGiveTheGeneratorsBuckets() {
    WebLogTally.Buckets counts =
        WebLogTally.buckets("status", SeqDbAggregation.Function.COUNT, null);
    WebLogTally.Buckets minSize =
        WebLogTally.buckets("status", SeqDbAggregation.Function.MIN, "size");
    WebLogTally.run(WEB, DOCS, List.of(counts, minSize));

    assertThat(
            ask(
                logs("count by status")
                    .seqql("*")
                    .aggregate(SeqDbAggregation.count().groupBy("status"))
                    .check(bucketCounts("").is(counts.result())),
                sq))
        .isNull();
    assertThat(
            ask(
                logs("count by status")
                    .search(
                        "{\"size\":0,\"aggs\":{\"by_status\":{\"terms\":{\"field\":\"status\",\"size\":100}}}}")
                    .check(bucketCounts("").is(counts.result())),
                es))
        .isNull();
    assertThat(
            ask(
                logs("min size by status")
                    .seqql("*")
                    .aggregate(SeqDbAggregation.min("size").groupBy("status"))
                    .check(bucketValues("").is(minSize.result())),
                sq))
        .isNull();
    assertThat(
            ask(
                logs("min size by status")
                    .search(
                        "{\"size\":0,\"aggs\":{\"by_status\":{\"terms\":{\"field\":\"status\",\"size\":100},"
                            + "\"aggs\":{\"m\":{\"min\":{\"field\":\"size\"}}}}}}")
                    .check(bucketValues("").is(minSize.result())),
                es))
        .isNull();
  }

  @Test
  void aTimeRangeHoldsItsSecondsOfDocuments() {
    long start = WebLogs.DEFAULT_START + 20;
    long end = start + 50; // 50 s of log time, 100 documents a second
    assertThat(
            ask(
                logs("range")
                    .seqql("'@timestamp':[" + start + ", " + end + ")")
                    .withTotal()
                    .check(total().is(5_000)),
                sq))
        .isNull();
    assertThat(
            ask(
                logs("range")
                    .search(
                        "{\"query\":{\"range\":{\"@timestamp\":{\"gte\":"
                            + start
                            + ",\"lt\":"
                            + end
                            + "}}},\"size\":10}")
                    .queryString("track_total_hits=true")
                    .check(total().is(5_000)),
                es))
        .isNull();
    // seq-db's histogram counts every document once
    SearchResult hist = sq.seqDb(SeqDbQuery.of("*").withSize(0).withHistogram("1h")).join();
    assertThat(
            hist.buckets(SeqDbQuery.HISTOGRAM).stream()
                .mapToLong(SearchResult.Bucket::docCount)
                .sum())
        .isEqualTo(DOCS);
  }

  @Test
  void aSearchSeqDbAnswersWithAnErrorCodeIsAKoWithThatCode() throws Exception {
    // seq-db refuses a search over more data files ("fractions") than it may read, with HTTP 200
    try (LocalSeqDb small =
            LocalSeqDb.builder()
                .option("--frac-size", "32KB")
                .option("--search-fraction-limit", "1")
                .start();
        LogsClient client =
            LogsClient.open(LogsClientOptions.of(small.baseUrl()).withStore(LogStore.SEQ_DB))) {
      String reason = null;
      for (int i = 0; i < 60 && reason == null; i++) {
        JsonBuffer body = new JsonBuffer(1 << 20);
        BulkBodies.append(WEB, i * 2_000L, 2_000, body);
        assertThat(client.bulk(INDEX, body, false, 2_000).join().ok()).isTrue();
        Thread.sleep(200); // seq-db seals a full fraction once a second
        reason = ask(logs("errors").seqql("status:500").check(hits().gte(1)), client);
      }
      assertThat(reason).isEqualTo("ERROR_CODE_TOO_MANY_FRACTIONS_HIT");
      // a check that reads the error judges the read itself
      assertThat(
              ask(
                  logs("errors")
                      .seqql("status:500")
                      .check(errorCode().is("ERROR_CODE_TOO_MANY_FRACTIONS_HIT")),
                  client))
          .isNull();
    }
  }

  @Test
  void eachStoreSaysWhatItIs() {
    assertThat(sq.identity(INDEX))
        .containsEntry("product", "seq-db")
        .containsEntry("nodes", 1)
        .hasEntrySatisfying(
            "mapping",
            m ->
                assertThat((Map<Object, Object>) m)
                    .containsEntry("request", "text")
                    .containsEntry("status", "keyword")
                    .containsEntry("fusillade_marker", "keyword"));
    assertThat(sq.count(INDEX)).isEqualTo(DOCS);
    assertThat(sq.termCounts(INDEX, "status")).isEqualTo(es.termCounts(INDEX, "status"));
  }
}
