package io.fusillade.scenarios.logs;

import io.fusillade.logs.IndexSpec;
import io.fusillade.logs.LogProfile;
import io.fusillade.logs.LogSearches;
import io.fusillade.logs.LogStore;
import io.fusillade.logs.LogsClientOptions;
import io.fusillade.logs.SearchScenario;
import io.fusillade.logs.WebLogs;
import io.fusillade.workload.LogSearch;
import io.fusillade.workload.LogsSection;
import java.util.List;
import java.util.Map;

/**
 * From a workload's {@code logs} section, plain data as the file gives it, to the log client's
 * types: the profile, the index to create, the client options and the search scenarios.
 *
 * <p>The section was validated against {@link io.fusillade.workload.LogsNames} when the file was
 * loaded, so every name here is one the client knows (the test of this class checks that the two
 * lists agree); a name it does not know is a bug, thrown as {@link IllegalStateException}.
 */
public final class LogsWorkloadMapping {

  private LogsWorkloadMapping() {}

  /**
   * @param section a validated section
   * @return its data profile
   */
  public static LogProfile profile(LogsSection section) {
    return LogProfile.parse(section.profile())
        .orElseThrow(() -> unknown("profile", section.profile()));
  }

  /**
   * @param section a validated section
   * @return how to create the index: the preset with the section's shards and replicas
   */
  public static IndexSpec indexSpec(LogsSection section) {
    IndexSpec spec =
        section.mapping().equals(LogsSection.CUSTOM_MAPPING)
            ? IndexSpec.preset(section.index(), "none").withMappings(ownMapping(section))
            : IndexSpec.preset(section.index(), section.mapping());
    spec = spec.withShards(section.shards()).withReplicas(section.replicas());
    if (section.codec() != null) {
      spec = spec.withCodec(section.codec());
    }
    if (section.refreshInterval() != null) {
      spec = spec.withRefreshInterval(section.refreshInterval());
    }
    return spec;
  }

  /**
   * The Elasticsearch mapping of the section's own fields: {@code {"dynamic":false,
   * "properties":{"http_code":{"type":"integer"},...}}}.
   */
  static String ownMapping(LogsSection section) {
    StringBuilder json = new StringBuilder("{");
    if (section.dynamic() != null) {
      json.append("\"dynamic\":").append(section.dynamic()).append(',');
    }
    json.append("\"properties\":{");
    boolean first = true;
    for (Map.Entry<String, Map<String, String>> field : section.fields().entrySet()) {
      json.append(first ? "" : ",").append(quote(field.getKey())).append(":{");
      first = false;
      boolean firstKey = true;
      for (Map.Entry<String, String> e : field.getValue().entrySet()) {
        json.append(firstKey ? "" : ",")
            .append(quote(e.getKey()))
            .append(':')
            .append(quote(e.getValue()));
        firstKey = false;
      }
      json.append('}');
    }
    return json.append("}}").toString();
  }

  private static String quote(String text) {
    return new String(
        io.fusillade.logs.JsonBuffer.quoted(text), java.nio.charset.StandardCharsets.UTF_8);
  }

  /**
   * @param section a validated section
   * @return the kind of store its target is
   */
  public static LogStore store(LogsSection section) {
    return LogStore.parse(section.target()).orElseThrow(() -> unknown("store", section.target()));
  }

  /**
   * @param section a validated section
   * @param nodes the base URLs to use (the section's, or others given on the command line)
   * @return the client options with the section's credentials
   * @throws IllegalArgumentException when a URL cannot be used
   */
  public static LogsClientOptions clientOptions(LogsSection section, List<String> nodes) {
    LogsClientOptions options =
        new LogsClientOptions(nodes, null, null, null, null, store(section));
    if (section.user() != null) {
      options = options.withBasicAuth(section.user(), section.password());
    } else if (section.apiKey() != null) {
      options = options.withApiKey(section.apiKey());
    }
    return options;
  }

  /**
   * The built-in scenario a search names, with the file's overrides of its users, duration or
   * iterations applied.
   *
   * @param search a validated search
   * @param logs the generator the index was filled from
   * @param documents how many documents the index holds
   * @param seed the seed of the search parameters
   * @return the scenario to run
   */
  public static SearchScenario scenario(LogSearch search, WebLogs logs, long documents, long seed) {
    SearchScenario s =
        LogSearches.web(search.name(), logs, documents, seed)
            .orElseThrow(() -> unknown("search", search.name()));
    int users = search.concurrency().orElse(s.users());
    if (search.duration().isPresent()) {
      return new SearchScenario(
          s.name(),
          s.template(),
          users,
          search.duration().get(),
          0,
          s.minHits(),
          s.aggregation(),
          s.minBuckets(),
          s.seqDb());
    }
    if (search.iterations().isPresent()) {
      return new SearchScenario(
          s.name(),
          s.template(),
          users,
          null,
          search.iterations().getAsInt(),
          s.minHits(),
          s.aggregation(),
          s.minBuckets(),
          s.seqDb());
    }
    return s.withUsers(users);
  }

  private static IllegalStateException unknown(String what, String name) {
    return new IllegalStateException(
        "the log client has no " + what + " '" + name + "' (workload.LogsNames and logs differ)");
  }
}
