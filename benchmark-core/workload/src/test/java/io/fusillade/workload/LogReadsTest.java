package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reads a {@code logs} section writes itself, for both stores from one file, and its mapping and
 * index settings: the shipped study becomes the model, and each mistake gets its located message.
 */
class LogReadsTest {

  private static LogsSection logsOf(String name, String yaml) {
    LoadResult result = WorkloadLoader.parse(name, yaml, k -> null);
    assertThat(result.problems()).isEmpty();
    return result.orThrow().logs().orElseThrow();
  }

  @Test
  void theShippedStudyHasTheSixReadsInBothStoresTermsAndTheWebMapping() throws Exception {
    Path study = Path.of("../../workloads/studies/log-stores.yml");
    LogsSection logs = logsOf("log-stores.yml", Files.readString(study));

    assertThat(logs.target()).isEqualTo("opensearch");
    assertThat(logs.mapping()).isEqualTo(LogsSection.CUSTOM_MAPPING);
    assertThat(logs.dynamic()).isFalse();
    assertThat(logs.fields())
        .containsEntry("@timestamp", Map.of("type", "date", "format", "epoch_second"))
        .containsEntry("clientip", Map.of("type", "ip"))
        .containsEntry("request", Map.of("type", "text"))
        .containsKeys("status", "size");
    assertThat(logs.codec()).isEqualTo("best_compression");
    assertThat(logs.refreshInterval()).isEqualTo("1s");
    assertThat(logs.searches())
        .extracting(LogSearch::name)
        .containsExactly(
            "offset paging",
            "status in",
            "request phrase",
            "count by status",
            "min size by status",
            "range pages");
    assertThat(logs.searches())
        .allSatisfy(
            s -> {
              assertThat(s.custom()).isTrue();
              assertThat(s.read().es()).startsWith("{");
              assertThat(s.read().seqDb()).isNotNull();
              assertThat(LogsNames.missingForm(s, "seq-db")).isNull();
              assertThat(LogsNames.missingForm(s, "opensearch")).isNull();
            });
    // the seed's concurrency: 20 users for 10 s; 10 requests from 2 users; 5 from 1
    LogSearch paging = logs.searches().get(0);
    assertThat(paging.concurrency()).hasValue(20);
    assertThat(paging.duration()).hasValue(java.time.Duration.ofSeconds(10));
    LogSearch counts = logs.searches().get(3);
    assertThat(counts.concurrency()).hasValue(2);
    assertThat(counts.iterations()).hasValue(5);
    assertThat(logs.searches().get(4).iterations()).hasValue(5);

    LogRead range = logs.searches().get(5).read();
    assertThat(range.params())
        .extracting(LogRead.Param::name)
        .containsExactly("start", "end", "page", "offset");
    assertThat(range.params().get(1)).isEqualTo(new LogRead.Param("end", null, "start", 1, 50));
    assertThat(range.params().get(3)).isEqualTo(new LogRead.Param("offset", null, "page", 100, 0));
    assertThat(range.seqDb().query()).isEqualTo("'@timestamp':[#{start}, #{end})");
    assertThat(range.seqDb().offset()).isEqualTo("#{offset}");
    assertThat(range.seqDb().size()).isEqualTo("100");
    assertThat(range.expect().count()).isEqualTo(5000);
    assertThat(range.expect().hits()).isEqualTo(100);

    LogRead statusIn = logs.searches().get(1).read();
    assertThat(statusIn.expect().countWhere())
        .isEqualTo(Map.of("status", List.of("500", "400", "403")));
    LogRead minSize = logs.searches().get(4).read();
    assertThat(minSize.seqDb().aggregations())
        .containsExactly(new LogRead.Aggregation("min", "size", "status", List.of(), null));
    assertThat(minSize.expect().buckets()).isEqualTo(new LogRead.Buckets("status", "min", "size"));
  }

  @Test
  void aSectionOnSeqDbAndTheProductionMapping() {
    LogsSection logs =
        logsOf(
            "k8s.yml",
            """
            logs:
              target: SeqDB
              profile: k8s
              mapping:
                dynamic: false
                fields:
                  k8s_pod: keyword
                  client_ip: keyword
                  http_code: integer
                  http_method: keyword
                  message: text
              docs: 5000
              searches:
                - name: errors
                  iterations: 3
                  seq-db:
                    query: 'http_code:[500, 599]'
                    total: true
                    order: asc
                    histogram: 1m
                    aggregate: [{func: quantile, field: http_code, quantiles: [0.5, 0.99], name: q}]
            """);
    assertThat(logs.seqDb()).isTrue();
    assertThat(logs.fields().keySet())
        .containsExactly("k8s_pod", "client_ip", "http_code", "http_method", "message");
    LogRead.SeqDb form = logs.searches().get(0).read().seqDb();
    assertThat(form.total()).isTrue();
    assertThat(form.oldestFirst()).isTrue();
    assertThat(form.histogram()).isEqualTo("1m");
    assertThat(form.aggregations())
        .containsExactly(
            new LogRead.Aggregation("quantile", "http_code", null, List.of(0.5, 0.99), "q"));
    assertThat(logs.withTarget("opensearch").seqDb()).isFalse();
    assertThat(LogsNames.missingForm(logs.searches().get(0), "opensearch"))
        .isEqualTo(
            "search 'errors' has no es body and the target is opensearch: add es: '{\"query\":"
                + " ...}'");
  }

  static Stream<Arguments> brokenReads() {
    return Stream.of(
        Arguments.of(
            "a read in no store's terms",
            """
            logs:
              docs: 5000
              searches:
                - name: mine
                  iterations: 1
                  expect: {hits: 1}
            """,
            "r.yml:4:7 logs.searches[0]: a search of your own needs es (the query DSL body), seq-db,"
                + " or both"),
        Arguments.of(
            "an EL name that is no parameter",
            """
            logs:
              docs: 5000
              searches:
                - name: mine
                  iterations: 1
                  params: [{name: page, type: integer, range: [0, 9]}]
                  es: '{"from":#{offest}}'
            """,
            "r.yml:7:11 logs.searches[0].es: #{offest} is no parameter of this search (its params:"
                + " page)"),
        Arguments.of(
            "the target's form missing",
            """
            logs:
              target: seq-db
              docs: 5000
              searches:
                - name: mine
                  iterations: 1
                  es: '{}'
            """,
            "r.yml:5:7 logs.searches[0]: search 'mine' has no seq-db form and the target is seq-db:"
                + " add seq-db: {query: ...}"),
        Arguments.of(
            "a derived parameter of nothing",
            """
            logs:
              docs: 5000
              searches:
                - name: mine
                  iterations: 1
                  params: [{name: offset, from: page, times: 100}]
                  es: '{}'
            """,
            "r.yml:6:37 logs.searches[0].params[0].from: no parameter 'page' before this one to"
                + " derive it from"),
        Arguments.of(
            "an aggregation without its field",
            """
            logs:
              target: seq-db
              docs: 5000
              searches:
                - name: mine
                  iterations: 1
                  seq-db: {query: '*', aggregate: [{func: min, group_by: status}]}
            """,
            "r.yml:7:40 logs.searches[0].seq-db.aggregate[0].field: min needs a field"),
        Arguments.of(
            "the generator asked of another profile",
            """
            logs:
              profile: k8s
              docs: 5000
              searches:
                - name: mine
                  iterations: 1
                  es: '{}'
                  expect: {count: {status: [500]}}
            """,
            "r.yml:5:7 logs.searches[0].expect: the generator's counts are of the web profile;"
                + " profile is k8s"),
        Arguments.of(
            "a field the generator does not know",
            """
            logs:
              docs: 5000
              searches:
                - name: mine
                  iterations: 1
                  es: '{}'
                  expect: {buckets: {group_by: http_code}}
            """,
            "r.yml:7:36 logs.searches[0].expect.buckets.group_by: the generator counts the web"
                + " profile's fields (@timestamp, clientip, request, status, size), not"
                + " 'http_code'"),
        Arguments.of(
            "a read that does not say how long",
            """
            logs:
              docs: 5000
              searches:
                - name: mine
                  es: '{}'
            """,
            "r.yml:4:7 logs.searches[0]: a search of your own needs duration (e.g. 10s) or"
                + " iterations"),
        Arguments.of(
            "a field type Elasticsearch does not have",
            """
            logs:
              docs: 5000
              mapping:
                fields: {status: integr}
            """,
            "r.yml:4:22 logs.mapping.fields.status: unknown field type 'integr'; did you mean"
                + " 'integer'?"),
        Arguments.of(
            "an unknown target",
            """
            logs:
              target: seqdbb
              docs: 5000
            """,
            "r.yml:2:11 logs.target: unknown target 'seqdbb'"),
        Arguments.of(
            "a refresh interval that is none",
            """
            logs:
              refresh_interval: often
              docs: 5000
            """,
            "r.yml:2:21 logs.refresh_interval: expected an interval such as 1s, 30s or -1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenReads")
  void eachMistakeIsLocated(String what, String yaml, String expected) {
    LoadResult result = WorkloadLoader.parse("r.yml", yaml, k -> null);
    assertThat(result.isValid()).isFalse();
    assertThat(result.problems())
        .extracting(Problem::toString)
        .anyMatch(p -> p.startsWith(expected));
  }
}
