package io.fusillade.system;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A server whose metrics a run records beside its requests: a Prometheus endpoint that {@link
 * ServerScraper} reads once a second. What it serves decides what is recorded, under {@code
 * server.<name>.}:
 *
 * <ul>
 *   <li>{@code node_exporter}'s names (also served by {@code fusillade agent}): {@code
 *       cpu.user|system|iowait|steal|idle} (%), {@code load1}, {@code memory.used|available},
 *       {@code disk.read|write} and {@code net.rx|tx} (bytes/s), and for {@link #filesystem()}
 *       {@code filesystem.used|available} (bytes) and {@code filesystem.use} (%);
 *   <li>cAdvisor's: {@code container.<name>.cpu} (% of one core) and {@code
 *       container.<name>.memory} (working set, bytes);
 *   <li>every metric named in {@link #metrics()} ({@code postgres_exporter}'s, the JMX exporter's):
 *       {@code metric.<name>}, its series added up, a counter as its rate per second.
 * </ul>
 *
 * @param name the name in the gauges and the report: letters, digits, '_' and '-'
 * @param url the endpoint, such as {@code http://db1:9100/metrics}; user and password in it are
 *     sent as basic authentication and never shown
 * @param filesystem the mount point whose use is recorded (default {@code /})
 * @param metrics more metrics to record as they are
 */
public record ServerTarget(String name, URI url, String filesystem, List<String> metrics) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");
  private static final Pattern METRIC = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

  /** The mount point recorded when none is given. */
  public static final String DEFAULT_FILESYSTEM = "/";

  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException naming the field that is wrong
   */
  public ServerTarget {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(url, "url");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "server name \"" + name + "\" must be letters, digits, '_' or '-'");
    }
    if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())
        || url.getHost() == null) {
      throw new IllegalArgumentException(
          "server " + name + ": \"" + shown(url) + "\" is not an http(s) URL with a host");
    }
    filesystem = filesystem == null || filesystem.isBlank() ? DEFAULT_FILESYSTEM : filesystem;
    metrics = metrics == null ? List.of() : List.copyOf(metrics);
    for (String m : metrics) {
      if (!METRIC.matcher(m).matches()) {
        throw new IllegalArgumentException(
            "server " + name + ": \"" + m + "\" is not a Prometheus metric name");
      }
    }
  }

  /**
   * A target with the default mount point and no extra metric.
   *
   * @param name see {@link #name()}
   * @param url see {@link #url()}
   * @return the target
   * @throws IllegalArgumentException when the name or the URL is wrong
   */
  public static ServerTarget of(String name, String url) {
    return new ServerTarget(name, uri(name, url), null, List.of());
  }

  /**
   * This target recording another mount point.
   *
   * @param mountPoint e.g. {@code /var/lib/kafka}
   * @return the target
   */
  public ServerTarget filesystem(String mountPoint) {
    return new ServerTarget(name, url, mountPoint, metrics);
  }

  /**
   * This target recording more metrics as they are.
   *
   * @param names metric names, e.g. {@code pg_stat_database_xact_commit}
   * @return the target
   */
  public ServerTarget metrics(String... names) {
    List<String> all = new ArrayList<>(metrics);
    all.addAll(List.of(names));
    return new ServerTarget(name, url, filesystem, all);
  }

  /**
   * The URL without user and password, for messages, the record and the report.
   *
   * @return e.g. {@code http://db1:9100/metrics}
   */
  public String shownUrl() {
    return shown(url);
  }

  private static String shown(URI url) {
    if (url.getRawUserInfo() == null) {
      return url.toString();
    }
    try {
      return new URI(
              url.getScheme(),
              null,
              url.getHost(),
              url.getPort(),
              url.getPath(),
              url.getQuery(),
              url.getFragment())
          .toString();
    } catch (URISyntaxException e) {
      return url.getScheme() + "://" + url.getHost();
    }
  }

  private static URI uri(String name, String url) {
    try {
      return new URI(url.strip());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "server " + name + ": not a URL (example: http://db1:9100/metrics)");
    }
  }

  /**
   * The target as one line of the {@code fusillade.monitor} system property: {@code name url
   * [filesystem=PATH] [metrics=a,b]}.
   *
   * @return the line
   */
  public String toLine() {
    StringBuilder line = new StringBuilder(name).append(' ').append(url);
    if (!filesystem.equals(DEFAULT_FILESYSTEM)) {
      line.append(" filesystem=").append(filesystem);
    }
    if (!metrics.isEmpty()) {
      line.append(" metrics=").append(String.join(",", metrics));
    }
    return line.toString();
  }

  /**
   * Reads a target: {@code name url [filesystem=PATH] [metrics=a,b]}, or {@code name=url} as the
   * command line's {@code --monitor} takes it.
   *
   * @param line the text
   * @return the target
   * @throws IllegalArgumentException saying what is wrong, without the URL's password
   */
  public static ServerTarget parse(String line) {
    String[] f = line.strip().split("\\s+");
    String name;
    String url;
    int next;
    int eq = f[0].indexOf('=');
    if (eq > 0 && f[0].indexOf("://") > eq) {
      name = f[0].substring(0, eq);
      url = f[0].substring(eq + 1);
      next = 1;
    } else if (f.length >= 2) {
      name = f[0];
      url = f[1];
      next = 2;
    } else {
      throw new IllegalArgumentException(
          "\"" + f[0] + "\": expected NAME=URL (example: db=http://db1:9100/metrics)");
    }
    ServerTarget target = of(name, url);
    for (int i = next; i < f.length; i++) {
      if (f[i].startsWith("filesystem=")) {
        target = target.filesystem(f[i].substring("filesystem=".length()));
      } else if (f[i].startsWith("metrics=")) {
        target = target.metrics(f[i].substring("metrics=".length()).split(","));
      } else {
        throw new IllegalArgumentException(
            "server " + name + ": unknown setting \"" + f[i] + "\" (filesystem=, metrics=)");
      }
    }
    return target;
  }

  /**
   * Reads the lines of the {@code fusillade.monitor} system property.
   *
   * @param property its value, or null
   * @return the targets
   */
  public static List<ServerTarget> parseLines(String property) {
    List<ServerTarget> targets = new ArrayList<>();
    if (property != null) {
      for (String line : property.split("\n")) {
        if (!line.isBlank()) {
          targets.add(parse(line));
        }
      }
    }
    return targets;
  }
}
