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

  /**
   * The stores a section may name as its {@code target} (the log client's {@code LogStore} labels),
   * the default first.
   */
  public static final List<String> TARGETS = List.of("opensearch", "elasticsearch", "seq-db");

  private LogsNames() {}

  /**
   * @param label a target, any case; {@code seqdb} and {@code seq_db} stand for {@code seq-db}
   * @return the target as in {@link #TARGETS}, or empty
   */
  public static Optional<String> target(String label) {
    String key = label == null ? "" : label.strip().toLowerCase(Locale.ROOT).replace('_', '-');
    String wanted = key.equals("seqdb") ? "seq-db" : key;
    return TARGETS.stream().filter(wanted::equals).findFirst();
  }

  /**
   * Why a read of the file's own cannot run on {@code target}, or null when it can: it needs its
   * {@code seq-db} form on seq-db, its {@code es} body on the others.
   *
   * @param search a search of the section
   * @param target one of {@link #TARGETS}
   */
  public static String missingForm(LogSearch search, String target) {
    if (!search.custom()) {
      return null;
    }
    if (target.equals("seq-db") && search.read().seqDb() == null) {
      return "search '"
          + search.name()
          + "' has no seq-db form and the target is seq-db: add seq-db: {query: ...}";
    }
    if (!target.equals("seq-db") && search.read().es() == null) {
      return "search '"
          + search.name()
          + "' has no es body and the target is "
          + target
          + ": add es: '{\"query\": ...}'";
    }
    return null;
  }

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
