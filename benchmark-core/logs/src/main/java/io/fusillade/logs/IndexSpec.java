package io.fusillade.logs;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How to create an index: its mapping, shards, replicas and refresh interval. The create request is
 * {@code PUT /<name>} with {@link #body()}.
 *
 * @param name the index name
 * @param mappings the {@code mappings} object as JSON (see {@link #PRESETS}), or null for dynamic
 *     mapping
 * @param shards primary shards, at least 1
 * @param replicas replicas per shard, at least 0
 * @param refreshInterval the {@code refresh_interval} ({@code 1s}, {@code 30s}, {@code -1}), or
 *     null for the server's default (1 s)
 * @param codec the {@code index.codec} ({@code best_compression}), or null for the default
 */
public record IndexSpec(
    String name, String mappings, int shards, int replicas, String refreshInterval, String codec) {

  /** The names of the built-in mapping presets. */
  public static final List<String> PRESETS = List.of("web-logs", "k8s-logs-index", "none");

  /** The web-logs mapping: {@code @timestamp} as {@code epoch_second}, else typed fields. */
  public static final String WEB_LOGS_MAPPING =
      "{\"properties\":{"
          + "\"@timestamp\":{\"type\":\"date\",\"format\":\"epoch_second\"},"
          + "\"clientip\":{\"type\":\"ip\"},"
          + "\"request\":{\"type\":\"text\"},"
          + "\"status\":{\"type\":\"integer\"},"
          + "\"size\":{\"type\":\"long\"}}}";

  /** The seed's production index: only these fields are indexed. */
  public static final String K8S_LOGS_MAPPING =
      "{\"dynamic\":false,\"properties\":{"
          + "\"k8s_cluster\":{\"type\":\"keyword\"},"
          + "\"k8s_container\":{\"type\":\"keyword\"},"
          + "\"k8s_group\":{\"type\":\"keyword\"},"
          + "\"k8s_label_jobid\":{\"type\":\"keyword\"},"
          + "\"k8s_namespace\":{\"type\":\"keyword\"},"
          + "\"k8s_node\":{\"type\":\"keyword\"},"
          + "\"k8s_pod\":{\"type\":\"keyword\"},"
          + "\"k8s_pod_label_cron\":{\"type\":\"keyword\"},"
          + "\"client_ip\":{\"type\":\"keyword\"},"
          + "\"http_code\":{\"type\":\"integer\"},"
          + "\"http_method\":{\"type\":\"keyword\"},"
          + "\"message\":{\"type\":\"text\"}}}";

  public IndexSpec {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("an index needs a name");
    }
    if (shards < 1) {
      throw new IllegalArgumentException("shards must be >= 1, got " + shards);
    }
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must be >= 0, got " + replicas);
    }
  }

  /** An index with a preset mapping, 1 shard, 0 replicas, the default refresh. */
  public static IndexSpec preset(String name, String preset) {
    String key = preset.strip().toLowerCase(Locale.ROOT);
    return switch (key) {
      case "web-logs", "web" -> new IndexSpec(name, WEB_LOGS_MAPPING, 1, 0, null, null);
      case "k8s-logs-index", "k8s" ->
          new IndexSpec(name, K8S_LOGS_MAPPING, 6, 0, null, "best_compression");
      case "none" -> new IndexSpec(name, null, 1, 0, null, null);
      default ->
          throw new IllegalArgumentException(
              "unknown mapping preset '" + preset + "'; known: " + String.join(", ", PRESETS));
    };
  }

  /** Whether a preset of this name exists. */
  public static boolean isPreset(String preset) {
    return preset != null
        && Arrays.asList("web-logs", "web", "k8s-logs-index", "k8s", "none")
            .contains(preset.strip().toLowerCase(Locale.ROOT));
  }

  /** The profile's own preset. */
  public static IndexSpec forProfile(String name, LogProfile profile) {
    return preset(name, profile.mappingPreset());
  }

  public IndexSpec withShards(int value) {
    return new IndexSpec(name, mappings, value, replicas, refreshInterval, codec);
  }

  public IndexSpec withReplicas(int value) {
    return new IndexSpec(name, mappings, shards, value, refreshInterval, codec);
  }

  public IndexSpec withRefreshInterval(String value) {
    return new IndexSpec(name, mappings, shards, replicas, value, codec);
  }

  public IndexSpec withCodec(String value) {
    return new IndexSpec(name, mappings, shards, replicas, refreshInterval, value);
  }

  public IndexSpec withMappings(String value) {
    return new IndexSpec(name, value, shards, replicas, refreshInterval, codec);
  }

  public IndexSpec withName(String value) {
    return new IndexSpec(value, mappings, shards, replicas, refreshInterval, codec);
  }

  /** The body of {@code PUT /<name>}. */
  public String body() {
    StringBuilder b = new StringBuilder("{\"settings\":{\"index\":{");
    b.append("\"number_of_shards\":").append(shards);
    b.append(",\"number_of_replicas\":").append(replicas);
    if (refreshInterval != null) {
      b.append(",\"refresh_interval\":").append(new String(JsonBuffer.quoted(refreshInterval)));
    }
    if (codec != null) {
      b.append(",\"codec\":").append(new String(JsonBuffer.quoted(codec)));
    }
    b.append("}}");
    if (mappings != null) {
      b.append(",\"mappings\":").append(mappings);
    }
    return b.append('}').toString();
  }
}
