package io.fusillade.logs;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The built-in data profiles, each with its generator and the index mapping it is meant for.
 *
 * <ul>
 *   <li>{@link #WEB}: web-access logs ({@link WebLogs}); mapping {@code web-logs}: {@code
 *       @timestamp} date in {@code epoch_second}, {@code clientip} ip, {@code request} text, {@code
 *       status} integer, {@code size} long.
 *   <li>{@link #K8S}: Kubernetes container logs ({@link K8sLogs}); mapping {@code k8s-logs-index},
 *       the seed's production index: only the selected fields are mapped ({@code dynamic: false}),
 *       keywords, {@code http_code} integer, {@code message} text, {@code best_compression}.
 * </ul>
 */
public enum LogProfile {
  WEB("web", "web-logs"),
  K8S("k8s", "k8s-logs-index");

  private final String label;
  private final String mappingPreset;

  LogProfile(String label, String mappingPreset) {
    this.label = label;
    this.mappingPreset = mappingPreset;
  }

  /** The name used on the command line and in YAML ({@code web}, {@code k8s}). */
  public String label() {
    return label;
  }

  /** The name of the mapping preset this profile is meant for. */
  public String mappingPreset() {
    return mappingPreset;
  }

  /** The profile's generator for a seed. */
  public LogSource source(long seed) {
    return this == WEB ? new WebLogs(seed) : new K8sLogs(seed);
  }

  /** The profile of a label, case-insensitive. */
  public static Optional<LogProfile> parse(String label) {
    String key = label == null ? "" : label.strip().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(p -> p.label.equals(key)).findFirst();
  }
}
