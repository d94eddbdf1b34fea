package io.fusillade.scenarios.logs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.logs.IndexSpec;
import io.fusillade.logs.LogProfile;
import io.fusillade.logs.LogSearches;
import io.fusillade.logs.LogsClientOptions;
import io.fusillade.logs.SearchScenario;
import io.fusillade.logs.WebLogs;
import io.fusillade.workload.LoadResult;
import io.fusillade.workload.LogsNames;
import io.fusillade.workload.LogsSection;
import io.fusillade.workload.WorkloadLoader;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A {@code logs} section, plain data, becomes the log client's profile, index, options and
 * scenarios; and the names the workload validates against are the ones the client knows.
 */
class LogsWorkloadMappingTest {

  private static final Map<String, String> ENVIRONMENT =
      Map.of("ES_USER", "ingest", "ES_PASSWORD", "hunter2", "ES_KEY", "c2VjcmV0");

  private static LogsSection logsOf(String yaml) {
    LoadResult result = WorkloadLoader.parse("logs.yml", yaml, ENVIRONMENT::get);
    assertThat(result.problems()).isEmpty();
    return result.orThrow().logs().orElseThrow();
  }

  @Test
  void aFullSectionBecomesTheClientsTypes() {
    LogsSection logs =
        logsOf(
            """
            logs:
              urls: ['http://10.0.0.1:9200']
              user: ${env:ES_USER}
              password: ${env:ES_PASSWORD}
              profile: web
              index: weblogs-1
              mapping: web-logs
              shards: 3
              replicas: 1
              docs: 40000
              searches:
                - status in
                - name: count-by-status
                  iterations: 20
                - name: range pages
                  concurrency: 5
                  duration: 3s
            """);

    assertThat(LogsWorkloadMapping.profile(logs)).isEqualTo(LogProfile.WEB);
    assertThat(LogsWorkloadMapping.indexSpec(logs))
        .isEqualTo(IndexSpec.preset("weblogs-1", "web-logs").withShards(3).withReplicas(1));
    LogsClientOptions options =
        LogsWorkloadMapping.clientOptions(logs, List.of("http://10.0.0.9:9200"));
    assertThat(options.urls()).containsExactly("http://10.0.0.9:9200");
    assertThat(options.toString()).contains("basic ingest:***").doesNotContain("hunter2");

    // The seed's defaults unless overridden: status in keeps 20 users for 10 s.
    WebLogs web = new WebLogs(42);
    SearchScenario statusIn = LogsWorkloadMapping.scenario(logs.searches().get(0), web, 40_000, 42);
    assertThat(statusIn.users()).isEqualTo(20);
    assertThat(statusIn.duration()).isEqualTo(Duration.ofSeconds(10));
    SearchScenario counts = LogsWorkloadMapping.scenario(logs.searches().get(1), web, 40_000, 42);
    assertThat(counts.users()).isEqualTo(2);
    assertThat(counts.duration()).isNull();
    assertThat(counts.iterations()).isEqualTo(20);
    SearchScenario range = LogsWorkloadMapping.scenario(logs.searches().get(2), web, 40_000, 42);
    assertThat(range.users()).isEqualTo(5);
    assertThat(range.duration()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void theDefaultsFollowTheProfile() {
    LogsSection k8s =
        logsOf(
            """
            logs:
              profile: k8s
              api_key: ${env:ES_KEY}
              rate: 2.5
            """);
    assertThat(LogsWorkloadMapping.profile(k8s)).isEqualTo(LogProfile.K8S);
    assertThat(LogsWorkloadMapping.indexSpec(k8s))
        .isEqualTo(IndexSpec.forProfile("k8s-logs-index", LogProfile.K8S));
    assertThat(LogsWorkloadMapping.clientOptions(k8s, List.of("http://127.0.0.1:9200")).toString())
        .contains("api key ***")
        .doesNotContain("c2VjcmV0");

    LogsSection none = logsOf("logs:\n  mapping: none\n  docs: 5000\n");
    assertThat(LogsWorkloadMapping.indexSpec(none).mappings()).isNull();
  }

  @Test
  void theWorkloadsNamesAreTheClients() {
    assertThat(LogsNames.PROFILES)
        .extracting(LogsNames.Profile::label)
        .containsExactlyElementsOf(
            Arrays.stream(LogProfile.values()).map(LogProfile::label).toList());
    for (LogsNames.Profile p : LogsNames.PROFILES) {
      LogProfile profile = LogProfile.parse(p.label()).orElseThrow();
      assertThat(p.mappingPreset()).isEqualTo(profile.mappingPreset());
      assertThat(p.defaultShards()).isEqualTo(IndexSpec.forProfile("x", profile).shards());
    }
    assertThat(LogsNames.MAPPING_PRESETS).isEqualTo(IndexSpec.PRESETS);
    for (String alias : List.of("web", "k8s", "WEB-LOGS", " none ")) {
      assertThat(LogsNames.mappingPreset(alias)).isPresent();
      assertThat(IndexSpec.isPreset(alias)).isTrue();
    }
    assertThat(LogsNames.SEARCHES).isEqualTo(LogSearches.NAMES);
  }

  @Test
  void theFilesOwnMappingServesBothStores() {
    LogsSection logs =
        logsOf(
            """
            logs:
              target: seq-db
              profile: k8s
              mapping:
                dynamic: false
                fields:
                  k8s_cluster: keyword
                  client_ip: keyword
                  http_code: integer
                  http_method: keyword
                  message: text
              shards: 6
              codec: best_compression
              refresh_interval: 5s
              docs: 5000
            """);
    IndexSpec spec = LogsWorkloadMapping.indexSpec(logs);
    assertThat(spec.body())
        .isEqualTo(
            "{\"settings\":{\"index\":{\"number_of_shards\":6,\"number_of_replicas\":0,"
                + "\"refresh_interval\":\"5s\",\"codec\":\"best_compression\"}},"
                + "\"mappings\":{\"dynamic\":false,\"properties\":{"
                + "\"k8s_cluster\":{\"type\":\"keyword\"},\"client_ip\":{\"type\":\"keyword\"},"
                + "\"http_code\":{\"type\":\"integer\"},\"http_method\":{\"type\":\"keyword\"},"
                + "\"message\":{\"type\":\"text\"}}}}");
    // seq-db's mapping file, from the same fields
    assertThat(io.fusillade.logs.SeqDbMappings.yaml(spec))
        .isEqualTo(
            "mapping-list:\n"
                + "  - name: \"k8s_cluster\"\n    type: keyword\n"
                + "  - name: \"client_ip\"\n    type: keyword\n"
                + "  - name: \"http_code\"\n    type: keyword\n"
                + "  - name: \"http_method\"\n    type: keyword\n"
                + "  - name: \"message\"\n    type: text\n"
                + "  - name: \"fusillade_marker\"\n    type: keyword\n");
    assertThat(LogsWorkloadMapping.store(logs)).isEqualTo(io.fusillade.logs.LogStore.SEQ_DB);
    assertThat(LogsWorkloadMapping.clientOptions(logs, List.of("http://127.0.0.1:9002")).store())
        .isEqualTo(io.fusillade.logs.LogStore.SEQ_DB);
  }

  @Test
  void theWorkloadsTargetsAreTheClientsStores() {
    assertThat(LogsNames.TARGETS).containsExactlyElementsOf(io.fusillade.logs.LogStore.labels());
  }

  @Test
  void aReadThatCountsAsksForEveryMatch() {
    assertThat(LogReads.counting("request_cache=false&track_total_hits=false"))
        .isEqualTo("request_cache=false&track_total_hits=true");
    assertThat(LogReads.counting("")).isEqualTo("track_total_hits=true");
  }
}
