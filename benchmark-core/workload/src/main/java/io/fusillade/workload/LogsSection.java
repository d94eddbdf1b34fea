package io.fusillade.workload;

import java.util.List;
import java.util.Map;

/**
 * The {@code logs} section of a workload: a log store (any Elasticsearch-compatible {@code _bulk}
 * and {@code _search} API), the index to create, the documents to ingest and the searches to run
 * afterwards. {@code ${env:NAME}} values are already replaced; {@link #toString()} never shows a
 * secret. It holds what the file says, as plain values; the runner maps them to the log client's
 * options ({@code io.fusillade.scenarios.logs.LogsWorkloadMapping}). See {@code src/site/logs.md}.
 *
 * @param target the kind of store ({@link LogsNames#TARGETS}): where bulks go, how it is read, and
 *     which server is started when {@code urls} is empty
 * @param fields a mapping of the file's own ({@code mapping: {fields: ...}}): each field's
 *     Elasticsearch definition ({@code type}, and {@code format}), in order; empty with a preset
 * @param dynamic the own mapping's {@code dynamic}, or null when not given
 * @param codec the index's {@code codec} ({@code best_compression}), or null for the store's
 * @param refreshInterval the index's {@code refresh_interval} ({@code 1s}, {@code -1}), or null
 * @param urls the nodes' base URLs; empty for an embedded OpenSearch (or seq-db)
 * @param user the basic-auth user, or null
 * @param password the basic-auth password, or null
 * @param apiKey the API key, or null
 * @param profile the data profile's label ({@link LogsNames#PROFILES})
 * @param index the index name
 * @param mapping the mapping preset ({@link LogsNames#MAPPING_PRESETS}), or {@link #CUSTOM_MAPPING}
 *     for {@code fields}
 * @param shards primary shards
 * @param replicas replicas per shard
 * @param bulkSize documents per bulk
 * @param gzip whether bulk bodies are gzipped
 * @param concurrency users sending bulks back to back in {@link LogIngest.Mode#DOCS} mode
 * @param ingest what to ingest
 * @param timeToSearchable whether the time-to-searchable probe runs
 * @param searches the search scenarios to run after the ingest, in order
 * @param files NDJSON files to replay instead of the profile's generated documents (a file, a
 *     directory or a glob, gzipped or not), or null
 */
public record LogsSection(
    String target,
    Map<String, Map<String, String>> fields,
    Boolean dynamic,
    String codec,
    String refreshInterval,
    List<String> urls,
    String user,
    String password,
    String apiKey,
    String profile,
    String index,
    String mapping,
    int shards,
    int replicas,
    int bulkSize,
    boolean gzip,
    int concurrency,
    LogIngest ingest,
    boolean timeToSearchable,
    List<LogSearch> searches,
    String files) {

  /** The default documents per bulk (the seq-db benchmark's). */
  public static final int DEFAULT_BULK_SIZE = 5_000;

  /** The default number of users in {@code docs} mode. */
  public static final int DEFAULT_CONCURRENCY = 2;

  /** The {@link #mapping()} of a section that writes its own fields. */
  public static final String CUSTOM_MAPPING = "custom";

  /** Copies the lists and the map. */
  public LogsSection {
    fields = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fields));
    urls = List.copyOf(urls);
    searches = List.copyOf(searches);
  }

  /** Whether the target is seq-db. */
  public boolean seqDb() {
    return "seq-db".equals(target);
  }

  /** The same section on another target (as {@code fusillade run --target} asks). */
  public LogsSection withTarget(String value) {
    return new LogsSection(
        value,
        fields,
        dynamic,
        codec,
        refreshInterval,
        urls,
        user,
        password,
        apiKey,
        profile,
        index,
        mapping,
        shards,
        replicas,
        bulkSize,
        gzip,
        concurrency,
        ingest,
        timeToSearchable,
        searches,
        files);
  }

  /**
   * @return how many documents the ingest plans to store
   */
  public long plannedDocuments() {
    return ingest.plannedBulks(bulkSize) * bulkSize;
  }

  @Override
  public String toString() {
    return "LogsSection[target="
        + target
        + ", urls="
        + urls.stream().map(LogsNames::maskUrl).toList()
        + ", auth="
        + (apiKey != null ? "api key ***" : user != null ? "basic " + user + ":***" : "none")
        + ", profile="
        + profile
        + ", index="
        + index
        + ", mapping="
        + mapping
        + ", shards="
        + shards
        + ", replicas="
        + replicas
        + ", bulkSize="
        + bulkSize
        + ", gzip="
        + gzip
        + ", concurrency="
        + concurrency
        + ", ingest="
        + ingest
        + ", timeToSearchable="
        + timeToSearchable
        + ", searches="
        + searches
        + "]";
  }
}
