package io.fusillade.workload;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The names a {@code logs} section may use, as plain data: the data profiles with their mapping
 * presets, the mapping presets and the built-in searches.
 *
 * <p>They are the names the log client knows ({@code io.fusillade.logs.LogProfile}, {@code
 * IndexSpec.PRESETS}, {@code LogSearches.NAMES}), written again here because the workload module
 * sits beside the log client, not above it: a workload file is validated without the client, and
 * the runner maps the names to the client's types ({@code
 * io.fusillade.scenarios.logs.LogsWorkloadMapping}, whose test fails when the two lists differ).
 */
public final class LogsNames {

  /**
   * A data profile.
   *
   * @param label the name used in YAML ({@code web}, {@code k8s})
   * @param mappingPreset the mapping preset the profile is meant for
   * @param defaultShards the primary shards of that preset
   */
  public record Profile(String label, String mappingPreset, int defaultShards) {}

  /** The web-access logs profile, the default. */
  public static final Profile WEB = new Profile("web", "web-logs", 1);

  /** The Kubernetes container logs profile. */
  public static final Profile K8S = new Profile("k8s", "k8s-logs-index", 6);

  /** The profiles, in the order messages list them. */
  public static final List<Profile> PROFILES = List.of(WEB, K8S);

  /** The mapping presets, in the order messages list them; {@code none} is a dynamic mapping. */
  public static final List<String> MAPPING_PRESETS = List.of("web-logs", "k8s-logs-index", "none");

  /** The six built-in searches over the web profile, in order. */
  public static final List<String> SEARCHES =
      List.of(
          "offset paging",
          "status in",
          "request phrase",
          "count by status",
          "min size by status",
          "range pages");

  private LogsNames() {}

  /**
   * @param label a profile's label, any case, surrounding spaces ignored
   * @return the profile, or empty when none has that label
   */
  public static Optional<Profile> profile(String label) {
    String key = label == null ? "" : label.strip().toLowerCase(Locale.ROOT);
    return PROFILES.stream().filter(p -> p.label().equals(key)).findFirst();
  }

  /**
   * @param name a mapping preset's name, any case; a profile label stands for its preset
   * @return the preset's name in {@link #MAPPING_PRESETS}, or empty when there is none
   */
  public static Optional<String> mappingPreset(String name) {
    String key = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
    if (MAPPING_PRESETS.contains(key)) {
      return Optional.of(key);
    }
    return profile(key).map(Profile::mappingPreset);
  }

  /**
   * @param name a search's name, any case, with spaces, dashes or underscores between words
   * @return the name as in {@link #SEARCHES} (whether it is one or not)
   */
  public static String searchKey(String name) {
    return name.strip().toLowerCase(Locale.ROOT).replace('-', ' ').replace('_', ' ');
  }

  /** A URL with any {@code user:password@} part replaced by {@code ***@}, to show it safely. */
  static String maskUrl(String url) {
    return url == null ? null : url.replaceAll("//[^/@]*@", "//***@");
  }
}
