package io.fusillade.gatling.logs;

import static io.fusillade.gatling.BuilderAssertions.eachMethodReturnsAChangedCopy;
import static io.fusillade.gatling.logs.LogsDsl.logs;
import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.TestSessions;
import io.fusillade.logs.LogSearches;
import io.fusillade.logs.LogStore;
import io.fusillade.logs.SearchScenario;
import io.fusillade.logs.SeqDbAggregation;
import io.fusillade.logs.SeqDbQuery;
import io.fusillade.logs.WebLogs;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The seq-db side of the logs DSL, without Gatling running and without a store. */
class SeqQlBuildersTest {

  private static SeqDbQuery resolve(LogsSeqQlBuilder b, io.gatling.core.session.Session session) {
    return b.search().seqDb().resolve(session);
  }

  @Test
  void aSeqQlReadIsAPageOfAHundredNewestFirstOverAWideWindow() {
    LogsSeqQlBuilder read = logs("errors").seqql("status:500");
    SeqDbQuery query = resolve(read, TestSessions.empty());
    assertThat(query).isEqualTo(SeqDbQuery.of("status:500"));
    assertThat(query.endpoint()).isEqualTo("/search");
    assertThat(read.search().body()).as("no query DSL form").isNull();
    assertThat(resolve(read.size(20).offset(40).oldestFirst().withTotal(), TestSessions.empty()))
        .isEqualTo(
            SeqDbQuery.of("status:500").withSize(20).withOffset(40).oldestFirst().withTotal(true));
  }

  @Test
  void everyStringIsGatlingEl() {
    LogsSeqQlBuilder read =
        logs("#{kind}")
            .seqql("status:#{status}")
            .size("#{size}")
            .offset("#{offset}")
            .from("#{from}")
            .to("2030-01-01T00:00:00Z")
            .histogram("#{step}");
    io.gatling.core.session.Session session =
        TestSessions.with("status", 404)
            .set("size", 10)
            .set("offset", "300")
            .set("from", "2025-01-01T00:00:00Z")
            .set("step", "1m")
            .set("kind", "not found");
    SeqDbQuery query = resolve(read, session);
    assertThat(query.query()).isEqualTo("status:404");
    assertThat(query.size()).isEqualTo(10);
    assertThat(query.offset()).isEqualTo(300);
    assertThat(query.from()).isEqualTo("2025-01-01T00:00:00Z");
    assertThat(query.histogram()).isEqualTo("1m");
    assertThat(query.endpoint()).isEqualTo("/complex-search");
    assertThat(read.search().name().resolve(session)).isEqualTo("not found");
  }

  @Test
  void aggregationsAloneAskForNoDocuments() {
    SeqDbQuery query =
        resolve(
            logs("min size").seqql("*").aggregate(SeqDbAggregation.min("size").groupBy("status")),
            TestSessions.empty());
    assertThat(query.size()).isZero();
    assertThat(query.endpoint()).isEqualTo("/aggregate");
    assertThat(query.aggregations())
        .containsExactly(SeqDbAggregation.min("size").groupBy("status"));
  }

  @Test
  void everySeqQlMethodReturnsAChangedCopy() {
    Map<String, UnaryOperator<LogsSeqQlBuilder>> methods =
        Map.ofEntries(
            Map.entry("size", b -> b.size(7)),
            Map.entry("sizeEl", b -> b.size("#{n}")),
            Map.entry("offset", b -> b.offset(100)),
            Map.entry("offsetEl", b -> b.offset("#{offset}")),
            Map.entry("from", b -> b.from("2025-01-01T00:00:00Z")),
            Map.entry("to", b -> b.to("2026-01-01T00:00:00Z")),
            Map.entry("withTotal", LogsSeqQlBuilder::withTotal),
            Map.entry("oldestFirst", LogsSeqQlBuilder::oldestFirst),
            Map.entry("aggregate", b -> b.aggregate(SeqDbAggregation.count().groupBy("status"))),
            Map.entry("histogram", b -> b.histogram("1m")),
            Map.entry("check", b -> b.check(LogsDsl.hits().gte(1))),
            Map.entry("checkIf", b -> b.checkIf("#{audit}").then(LogsDsl.total().is(5000))));
    eachMethodReturnsAChangedCopy(
        logs("s").seqql("*"),
        b -> List.of(b.search().checks(), resolve(b, TestSessions.with("n", 3).set("offset", 9))),
        methods);
  }

  @Test
  void theStoreIsPartOfTheProtocol() {
    assertThat(logs.settings().target().store()).isEqualTo(LogStore.OPENSEARCH);
    LogsProtocolBuilder seqDb = logs.urls("http://127.0.0.1:9002").store(LogStore.SEQ_DB);
    assertThat(seqDb.settings().clientOptions().store()).isEqualTo(LogStore.SEQ_DB);
    assertThat(seqDb.protocol()).isNotEqualTo(logs.urls("http://127.0.0.1:9002").protocol());
  }

  @Test
  void aBuiltInScenarioCarriesItsSeqDbFormDrawingTheSamePagesAsItsQueryDsl() {
    WebLogs web = new WebLogs(3);
    SearchScenario range = LogSearches.web("range pages", web, 100_000, 11).orElseThrow();
    LogsSearch search = logs("range pages").search(range).search();
    assertThat(search.body()).isNotNull();
    SeqDbQuery first = search.seqDb().resolve(TestSessions.empty());
    assertThat(first.query()).matches("'@timestamp':\\[\\d+, \\d+\\)");
    assertThat(first.size()).isEqualTo(100);
    assertThat(first.ascending()).isTrue();
    // the seq-db form and the query DSL body draw the same offsets from one seed
    SearchScenario again = LogSearches.web("range pages", web, 100_000, 11).orElseThrow();
    String body = again.template().next();
    assertThat(body).contains("\"from\":" + first.offset() + ",");
    long start = Long.parseLong(first.query().replaceAll("'@timestamp':\\[(\\d+),.*", "$1"));
    assertThat(body).contains("\"gte\":" + start + ",");
  }
}
