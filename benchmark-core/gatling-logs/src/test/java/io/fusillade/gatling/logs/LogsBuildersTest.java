package io.fusillade.gatling.logs;

import static io.fusillade.gatling.BuilderAssertions.eachMethodReturnsAChangedCopy;
import static io.fusillade.gatling.logs.LogsDsl.buckets;
import static io.fusillade.gatling.logs.LogsDsl.hits;
import static io.fusillade.gatling.logs.LogsDsl.logs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.TestSessions;
import io.fusillade.logs.IndexSpec;
import io.fusillade.logs.LogProfile;
import io.fusillade.logs.LogSearches;
import io.fusillade.logs.SearchScenario;
import io.fusillade.logs.SearchTemplate;
import io.fusillade.logs.SearchabilityProbe;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The logs DSL's builders, without Gatling running and without a log store. */
class LogsBuildersTest {
  private static final LogsProtocolBuilder STORE = logs.urls("http://127.0.0.1:9200");

  @Test
  void theProtocolsDefaults() {
    LogsSettings defaults = logs.settings();
    assertThat(defaults.target().urls()).isEmpty();
    assertThat(defaults.target().requestTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(defaults.index()).isEqualTo(new LogsIndex("logs", null, false));
    assertThat(defaults.data().profile()).isEqualTo(LogProfile.WEB);
    assertThat(defaults.data().source()).isNull();
    assertThat(defaults.data().seed()).isEqualTo(1);
    assertThat(defaults.firstDocument()).isZero();
    assertThat(defaults.gzip()).isFalse();
    assertThat(defaults.probe()).isNull();
  }

  @Test
  void everyProtocolMethodReturnsAChangedCopy() {
    IndexSpec spec = IndexSpec.preset("web-logs", "web-logs");
    Map<String, UnaryOperator<LogsProtocolBuilder>> methods =
        Map.ofEntries(
            Map.entry("urls", b -> b.urls("http://other:9200")),
            Map.entry("basicAuth", b -> b.basicAuth("ingest", "secret")),
            Map.entry("apiKey", b -> b.apiKey("key")),
            Map.entry("requestTimeout", b -> b.requestTimeout(Duration.ofSeconds(5))),
            Map.entry("index", b -> b.index("web")),
            Map.entry("profile", b -> b.profile(LogProfile.values()[1])),
            Map.entry("seed", b -> b.seed(42)),
            Map.entry("firstDocument", b -> b.firstDocument(1000)),
            Map.entry("gzip", b -> b.gzip(true)),
            Map.entry("createIndex", b -> b.createIndex(spec)),
            Map.entry("recreateIndex", b -> b.recreateIndex(spec)),
            Map.entry("timeToSearchable", LogsProtocolBuilder::timeToSearchable));
    eachMethodReturnsAChangedCopy(STORE, LogsProtocolBuilder::settings, methods);
  }

  @Test
  void credentialsReplaceEachOther() {
    LogsTarget basic = STORE.apiKey("key").basicAuth("ingest", "secret").settings().target();
    assertThat(basic.apiKey()).isNull();
    assertThat(basic.user()).isEqualTo("ingest");
    LogsTarget key = STORE.basicAuth("ingest", "secret").apiKey("key").settings().target();
    assertThat(key.user()).isNull();
    assertThat(key.password()).isNull();
    assertThat(key.apiKey()).isEqualTo("key");
    assertThat(STORE.basicAuth("ingest", "secret").settings().toString()).doesNotContain("secret");
  }

  @Test
  void creatingAnIndexNamesTheIndexUsed() {
    IndexSpec spec = IndexSpec.preset("web-logs", "web-logs");
    LogsSettings created = STORE.index("other").recreateIndex(spec).settings();
    assertThat(created.indexName()).isEqualTo("web-logs");
    assertThat(created.index().create()).isEqualTo(spec);
    assertThat(created.index().recreate()).isTrue();
    assertThat(STORE.createIndex(spec).settings().index().recreate()).isFalse();
    assertThat(STORE.createIndex(spec).index("other").settings().index())
        .isEqualTo(new LogsIndex("other", spec, false));
  }

  @Test
  void theProbesDefaultSettings() {
    assertThat(STORE.timeToSearchable().settings().probe())
        .isEqualTo(SearchabilityProbe.Settings.DEFAULT);
  }

  @Test
  void theProtocolNeedsAValidUrl() {
    assertThatThrownBy(logs::protocol)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("The logs protocol needs at least one URL: logs.urls(\"http://host:9200\")");
    assertThatThrownBy(() -> logs.urls("ftp://x").protocol())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not an http(s) URL: ftp://x");
    assertThat(STORE.protocol()).isEqualTo(STORE.protocol());
  }

  @Test
  void aRequestNeedsANameAndABulkADocument() {
    assertThatThrownBy(() -> logs(" ")).hasMessage("a logs request needs a name");
    assertThatThrownBy(() -> logs("bulk").bulk(0))
        .hasMessage("a bulk needs at least one document, got 0");
    LogsBulkBuilder.Bulk bulk = logs("bulk #{n}").bulk(500).bulk();
    assertThat(bulk.documents()).isEqualTo(500);
    assertThat(bulk.name().resolve(TestSessions.with("n", 1))).isEqualTo("bulk 1");
  }

  @Test
  void aSearchsDefaults() {
    LogsSearch search = logs("s").search("{\"query\":{\"match_all\":{}}}").search();
    assertThat(search.index()).isNull();
    assertThat(search.queryString()).isEqualTo(LogSearches.QUERY_STRING);
    assertThat(search.checks()).isEmpty();
    assertThat(search.body().resolve(TestSessions.empty()))
        .isEqualTo("{\"query\":{\"match_all\":{}}}");
  }

  @Test
  void everySearchMethodReturnsAChangedCopy() {
    Map<String, UnaryOperator<LogsSearchBuilder>> methods =
        Map.of(
            "index", b -> b.index("other-*"),
            "queryString", b -> b.queryString("request_cache=true"),
            "check", b -> b.check(hits().gte(1)),
            "checkIf", b -> b.checkIf("#{audit}").then(buckets("by_status").gte(2)));
    eachMethodReturnsAChangedCopy(logs("s").search("{}"), LogsSearchBuilder::search, methods);
  }

  @Test
  void aSearchBodyMayComeFromTheSession() {
    LogsSearch fromString = logs("s").search("{\"term\":{\"user\":\"#{user}\"}}").search();
    assertThat(fromString.body().resolve(TestSessions.with("user", "ann")))
        .isEqualTo("{\"term\":{\"user\":\"ann\"}}");
    LogsSearch fromEl =
        logs("s").search(Expression.text("{\"term\":{\"user\":\"#{user}\"}}")).search();
    assertThat(fromEl.body().resolve(TestSessions.with("user", "ann")))
        .isEqualTo("{\"term\":{\"user\":\"ann\"}}");
    LogsSearch daily = logs("s").search("{}").index("logs-#{day}").search();
    assertThat(daily.index().resolve(TestSessions.with("day", "2026-11-27")))
        .isEqualTo("logs-2026-11-27");
    LogsSearch computed = logs("s").search("{}").index(session -> "logs-x").search();
    assertThat(computed.index().resolve(TestSessions.empty())).isEqualTo("logs-x");
    LogsSearch fromFunction = logs("s").search(session -> "{}").search();
    assertThat(fromFunction.body().resolve(TestSessions.empty())).isEqualTo("{}");
  }

  @Test
  void aSearchScenarioBringsItsChecks() {
    SearchScenario scenario =
        new SearchScenario("errors", SearchTemplate.of("{}"), 1, null, 3, 5, "by_status", 2);
    LogsSearch search = logs("s").search(scenario).search();
    assertThat(search.checks().stream().map(Object::toString))
        .containsExactly("hits.gte(5)", "buckets(by_status).gte(2)");
  }
}
