package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code logs} section: a valid one becomes the model the runner uses; each broken one gets its
 * own message naming file, line, column and field, and {@code workload check} exits 2 with it.
 */
class LogsSectionTest {

  private static final Map<String, String> ENVIRONMENT =
      Map.of(
          "ES_URL", "http://10.0.0.1:9200",
          "ES_USER", "ingest",
          "ES_PASSWORD", "hunter2",
          "ES_KEY", "c2VjcmV0");

  @TempDir Path dir;

  private static LogsSection logsOf(String yaml) {
    LoadResult result = WorkloadLoader.parse("logs.yml", yaml, ENVIRONMENT::get);
    assertThat(result.problems()).isEmpty();
    return result.orThrow().logs().orElseThrow();
  }

  @Test
  void aFullSectionBecomesTheModel() {
    LogsSection logs =
        logsOf(
            """
            config_name: web-logs
            seed: 42
            logs:
              urls: ['${env:ES_URL}', 'http://10.0.0.2:9200/']
              user: ${env:ES_USER}
              password: ${env:ES_PASSWORD}
              profile: web
              index: weblogs-1
              mapping: web-logs
              shards: 3
              replicas: 1
              bulk_size: 1000
              gzip: true
              concurrency: 4
              docs: 40000
              time_to_searchable: true
              searches:
                - status in
                - name: count-by-status
                  iterations: 20
                - name: range pages
                  concurrency: 5
                  duration: 3s
            """);

    assertThat(logs.urls()).containsExactly("http://10.0.0.1:9200", "http://10.0.0.2:9200/");
    assertThat(logs.user()).isEqualTo("ingest");
    assertThat(logs.password()).isEqualTo("hunter2");
    assertThat(logs.toString()).doesNotContain("hunter2").contains("basic ingest:***");
    assertThat(logs.profile()).isEqualTo("web");
    assertThat(logs.index()).isEqualTo("weblogs-1");
    assertThat(logs.mapping()).isEqualTo("web-logs");
    assertThat(logs.shards()).isEqualTo(3);
    assertThat(logs.replicas()).isEqualTo(1);
    assertThat(logs.bulkSize()).isEqualTo(1000);
    assertThat(logs.gzip()).isTrue();
    assertThat(logs.concurrency()).isEqualTo(4);
    assertThat(logs.ingest()).isEqualTo(LogIngest.docs(40_000));
    assertThat(logs.plannedDocuments()).isEqualTo(40_000);
    assertThat(logs.timeToSearchable()).isTrue();
    assertThat(logs.searches())
        .extracting(LogSearch::name)
        .containsExactly("status in", "count by status", "range pages");
    assertThat(logs.searches().get(0))
        .isEqualTo(
            new LogSearch("status in", OptionalInt.empty(), Optional.empty(), OptionalInt.empty()));
    assertThat(logs.searches().get(1).iterations()).hasValue(20);
    assertThat(logs.searches().get(2).concurrency()).hasValue(5);
    assertThat(logs.searches().get(2).duration()).contains(Duration.ofSeconds(3));
  }

  @Test
  void defaultsFollowTheProfileAndOnlyLogsIsEnough() {
    LogsSection k8s =
        logsOf(
            """
            logs:
              profile: k8s
              api_key: ${env:ES_KEY}
              rate: 2.5
            """);
    assertThat(k8s.urls()).isEmpty();
    assertThat(k8s.apiKey()).isEqualTo("c2VjcmV0");
    assertThat(k8s.toString()).doesNotContain("c2VjcmV0");
    assertThat(k8s.index()).isEqualTo("k8s-logs-index");
    assertThat(k8s.mapping()).isEqualTo("k8s-logs-index");
    assertThat(k8s.shards()).isEqualTo(6);
    assertThat(k8s.replicas()).isZero();
    assertThat(k8s.bulkSize()).isEqualTo(5000);
    assertThat(k8s.ingest()).isEqualTo(LogIngest.rate(2.5, Duration.ofSeconds(60)));
    assertThat(k8s.plannedDocuments()).isEqualTo(150 * 5000);
    assertThat(k8s.searches()).isEmpty();

    LogsSection steps =
        logsOf(
            """
            logs:
              mapping: none
              bulk_size: 100
              steps: [1, 2, 4]
              step_duration: 500ms
            """);
    assertThat(steps.profile()).isEqualTo("web");
    assertThat(steps.index()).isEqualTo("web-logs");
    assertThat(steps.mapping()).isEqualTo("none");
    assertThat(steps.ingest())
        .isEqualTo(LogIngest.steps(List.of(1.0, 2.0, 4.0), Duration.ofMillis(500)));
    assertThat(steps.plannedDocuments()).isEqualTo((1 + 1 + 2) * 100);
  }

  @Test
  void checkSummarisesTheSection() throws IOException {
    Path file = dir.resolve("logs.yml");
    Files.writeString(
        file,
        """
        logs:
          docs: 20000
          bulk_size: 5000
          searches: [status in, count by status]
        """);
    StringWriter out = new StringWriter();
    int exit =
        WorkloadCommands.check(
            file,
            null,
            ENVIRONMENT::get,
            new PrintWriter(out),
            new PrintWriter(new StringWriter()));
    assertThat(exit).isZero();
    assertThat(out.toString())
        .contains(
            "logs: profile web, index web-logs (mapping web-logs, 1 shard, 0 replicas) on an"
                + " embedded OpenSearch\n"
                + "  ingest: 20000 docs by 2 users, bulks of 5000\n"
                + "  searches: status in, count by status\n");
  }

  @Test
  void aFileWithNothingToDoIsStillAnError() {
    LoadResult result = WorkloadLoader.parse("empty.yml", "config_name: x\n", ENVIRONMENT::get);
    assertThat(result.problems())
        .extracting(Problem::toString)
        .containsExactly(
            "empty.yml:1:1: nothing to do: the file has neither tables_schema, queries, logs nor"
                + " topics");
  }

  static Stream<Arguments> brokenSections() {
    return Stream.of(
        broken(
            "a misspelt key",
            """
            logs:
              docs: 5000
              bulk_sise: 100
            """,
            "broken.yml:3:3 logs.bulk_sise: unknown key 'bulk_sise'; did you mean 'bulk_size'?"),
        broken(
            "an unknown profile",
            """
            logs:
              profile: wbe
              docs: 5000
            """,
            "broken.yml:2:12 logs.profile: unknown profile 'wbe'; did you mean 'web'? (one of web,"
                + " k8s)"),
        broken(
            "an unknown mapping preset",
            """
            logs:
              mapping: web-log
              docs: 5000
            """,
            "broken.yml:2:12 logs.mapping: unknown mapping 'web-log'; did you mean 'web-logs'? (one"
                + " of web-logs, k8s-logs-index, none)"),
        broken(
            "a mapping for the other profile",
            """
            logs:
              profile: web
              mapping: k8s-logs-index
              docs: 5000
            """,
            "broken.yml:3:12 logs.mapping: mapping k8s-logs-index is for profile k8s, not web (use"
                + " web-logs or none)"),
        broken(
            "an unknown search",
            """
            logs:
              docs: 5000
              searches:
                - status in
                - name: stauts in
            """,
            "broken.yml:5:13 logs.searches[1].name: unknown search 'stauts in'; did you mean 'status"
                + " in'? (one of offset paging, status in, request phrase, count by status, min"
                + " size by status, range pages)"),
        broken(
            "rate and docs both",
            """
            logs:
              docs: 5000
              rate: 2
            """,
            "broken.yml:3:9 logs.rate: give one of docs, rate or steps, not docs and rate"),
        broken(
            "nothing to ingest",
            """
            logs:
              index: web
            """,
            "broken.yml:2:3 logs: nothing to ingest: give docs (an exact count), rate (bulks/s) or"
                + " steps (a list of rates)"),
        broken(
            "a bulk size of zero",
            """
            logs:
              bulk_size: 0
              rate: 1
            """,
            "broken.yml:2:14 logs.bulk_size: bulk_size must be between 1 and 1000000, got 0"),
        broken(
            "a negative rate",
            """
            logs:
              rate: -2
            """,
            "broken.yml:2:9 logs.rate: rate must be > 0 bulks/s, got -2"),
        broken(
            "a step rate of zero",
            """
            logs:
              steps: [1, 0, 4]
            """,
            "broken.yml:2:14 logs.steps[1]: a step's rate must be > 0 bulks/s, got 0"),
        broken(
            "docs not a multiple of the bulk size",
            """
            logs:
              bulk_size: 1000
              docs: 2500
            """,
            "broken.yml:3:9 logs.docs: docs 2500 is not a multiple of bulk_size 1000"),
        broken(
            "text where the docs count belongs",
            """
            logs:
              docs: lots
            """,
            "broken.yml:2:9 logs.docs: expected an integer, got the string \"lots\""),
        broken(
            "a duration that is not one",
            """
            logs:
              rate: 2
              duration: 10 minutes
            """,
            "broken.yml:3:13 logs.duration: expected a duration such as 30s, 500ms, 2m or 1h, got"
                + " the string \"10 minutes\""),
        broken(
            "a duration with docs",
            """
            logs:
              docs: 5000
              duration: 30s
            """,
            "broken.yml:3:13 logs.duration: duration goes with rate"),
        broken(
            "concurrency at a rate",
            """
            logs:
              rate: 2
              concurrency: 4
            """,
            "broken.yml:3:16 logs.concurrency: concurrency goes with docs: at a rate, each arrival"
                + " sends one bulk"),
        broken(
            "a password written in the file",
            """
            logs:
              urls: [http://127.0.0.1:9200]
              user: elastic
              password: hunter2
              docs: 5000
            """,
            "broken.yml:4:13 logs.password: a password must not be written in the file; use"
                + " ${env:NAME}"),
        broken(
            "an API key written in the file",
            """
            logs:
              api_key: c2VjcmV0
              docs: 5000
            """,
            "broken.yml:2:12 logs.api_key: an API key must not be written in the file; use"
                + " ${env:NAME}"),
        broken(
            "credentials in the URL",
            """
            logs:
              urls: ['http://elastic:hunter2@127.0.0.1:9200']
              docs: 5000
            """,
            "broken.yml:2:10 logs.urls[0]: put credentials in user and password (from"
                + " ${env:NAME}), not in the URL: http://***@127.0.0.1:9200"),
        broken(
            "a JDBC URL",
            """
            logs:
              urls: jdbc:postgresql://db/x
              docs: 5000
            """,
            "broken.yml:2:9 logs.urls: expected an http:// or https:// base URL, got"
                + " jdbc:postgresql://db/x"),
        broken(
            "an unset environment variable",
            """
            logs:
              urls: ['${env:OS_URL}']
              docs: 5000
            """,
            "broken.yml:2:10 logs.urls[0]: environment variable OS_URL is not set"),
        broken(
            "an index name in capitals",
            """
            logs:
              index: WebLogs
              docs: 5000
            """,
            "broken.yml:2:10 logs.index: index 'WebLogs' is not a valid index name: lowercase, at"
                + " most 255 bytes"),
        broken(
            "searches on the k8s profile",
            """
            logs:
              profile: k8s
              docs: 5000
              searches: [status in]
            """,
            "broken.yml:4:13 logs.searches: the built-in searches query the web profile's fields;"
                + " profile is k8s"),
        broken(
            "a search with both duration and iterations",
            """
            logs:
              docs: 5000
              searches:
                - name: count by status
                  duration: 5s
                  iterations: 10
            """,
            "broken.yml:6:19 logs.searches[0].iterations: give duration or iterations, not both"),
        broken(
            "a search listed twice",
            """
            logs:
              docs: 5000
              searches: [status in, Status-In]
            """,
            "broken.yml:3:25 logs.searches[1]: duplicate search 'status in' (first at line 3)"),
        broken(
            "a search user count of zero",
            """
            logs:
              docs: 5000
              searches:
                - name: status in
                  concurrency: 0
            """,
            "broken.yml:5:20 logs.searches[0].concurrency: concurrency must be between 1 and 10000,"
                + " got 0"),
        broken(
            "logs that are a list",
            """
            logs:
              - docs: 5000
            """,
            "broken.yml:2:3 logs: expected a mapping (key: value lines), got a list"));
  }

  private static Arguments broken(String what, String yaml, String expected) {
    return Arguments.of(what, yaml, expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenSections")
  void eachBrokenSectionGetsItsOwnLocatedMessage(String what, String yaml, String expected) {
    LoadResult result = WorkloadLoader.parse("broken.yml", yaml, ENVIRONMENT::get);

    assertThat(result.isValid()).isFalse();
    assertThat(result.problems()).isNotEmpty();
    assertThat(result.problems().get(0).toString()).startsWith(expected);
    assertThat(result.problems().toString()).doesNotContain("hunter2", "c2VjcmV0");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenSections")
  void checkPrintsTheProblemAndExitsTwo(String what, String yaml, String expected)
      throws IOException {
    Path file = dir.resolve("broken.yml");
    Files.writeString(file, yaml, StandardCharsets.UTF_8);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int exit =
        WorkloadCommands.check(
            file, null, ENVIRONMENT::get, new PrintWriter(out), new PrintWriter(err));

    assertThat(exit).isEqualTo(2);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString())
        .contains(expected.replace("broken.yml", file.toString()))
        .doesNotContain("Exception", "hunter2");
  }
}
