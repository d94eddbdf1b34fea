package io.fusillade.workload;

import io.fusillade.system.ServerTarget;
import io.fusillade.workload.YamlNode.MapNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads the {@code monitor} list: the servers whose metrics the run records beside its requests
 * ({@link ServerTarget}), each a Prometheus endpoint.
 *
 * <pre>{@code
 * monitor:
 *   - name: db                                # server.db.* in the record
 *     url: http://db1:9100/metrics            # node_exporter, cAdvisor, fusillade agent...
 *     filesystem: /var/lib/postgresql         # mount point whose use is recorded (default /)
 *     metrics: [pg_stat_database_xact_commit] # more metrics, recorded as they are
 * }</pre>
 *
 * The URL may use {@code ${env:NAME}}, for a password kept out of the file. An entry with {@code
 * logs:} instead of {@code url:} counts the lines of a server's log per pattern ({@link
 * LogMonitor}):
 *
 * <pre>{@code
 * - name: postgres
 *   logs: embedded                          # or a file path
 *   patterns: {warning: "WARNING|could not send"}
 * }</pre>
 */
final class MonitorParser extends FieldReader {
  private static final Set<String> KEYS =
      keys("name", "url", "filesystem", "metrics", "logs", "patterns");

  /** The entries with {@code logs:}, read by {@link #targets}. */
  final List<LogMonitor> logs = new ArrayList<>();

  MonitorParser(FieldReader shared) {
    super(shared);
  }

  /** The targets; a wrong one is a problem naming its line and key. */
  List<ServerTarget> targets(MapNode top) {
    List<ServerTarget> targets = new ArrayList<>();
    eachMapping(
        top,
        "",
        "monitor",
        (m, path, i) -> {
          int before = problems.size();
          checkKeys(m, path, KEYS);
          String name = string(m, path, "name", true);
          if (field(m, "logs") != null || field(m, "patterns") != null) {
            logSource(m, path, name, before);
            return;
          }
          String url = secret(m, path, "url");
          if (url == null && field(m, "url") == null) {
            missing(m, path, "url");
          }
          String filesystem = string(m, path, "filesystem", false);
          List<String> metrics = stringList(m, path, "metrics");
          if (problems.size() > before || name == null || url == null) {
            return;
          }
          try {
            ServerTarget.of(name, url); // the name and URL first: their own keys in messages
          } catch (IllegalArgumentException e) {
            String key = e.getMessage().startsWith("server name") ? "name" : "url";
            problem(field(m, key), join(path, key), e.getMessage());
            return;
          }
          try {
            targets.add(
                ServerTarget.of(name, url)
                    .filesystem(filesystem)
                    .metrics(metrics.toArray(String[]::new)));
          } catch (IllegalArgumentException e) {
            problem(field(m, "metrics"), join(path, "metrics"), e.getMessage());
          }
        });
    List<String> names = new ArrayList<>();
    for (ServerTarget t : targets) {
      if (names.contains(t.name())) {
        problem(field(top, "monitor"), "monitor", "two servers are named \"" + t.name() + "\"");
      }
      names.add(t.name());
    }
    List<String> logNames = new ArrayList<>();
    for (LogMonitor l : logs) {
      if (logNames.contains(l.name())) {
        problem(field(top, "monitor"), "monitor", "two log sources are named \"" + l.name() + "\"");
      }
      logNames.add(l.name());
    }
    return targets;
  }

  /** An entry with {@code logs:} and {@code patterns:}: a {@link LogMonitor}. */
  private void logSource(MapNode m, String path, String name, int before) {
    for (String key : List.of("url", "filesystem", "metrics")) {
      if (field(m, key) != null) {
        problem(
            field(m, key),
            join(path, key),
            "a logs source counts a log's lines: it has no "
                + key
                + " (give it an entry of its own)");
      }
    }
    String file = string(m, path, "logs", true);
    YamlNode patternsNode = field(m, "patterns");
    java.util.Map<String, String> patterns = new java.util.LinkedHashMap<>();
    if (patternsNode == null) {
      missing(m, path, "patterns");
    } else {
      MapNode p = asMap(patternsNode, join(path, "patterns"));
      if (p != null) {
        for (YamlNode.Entry e : p.entries()) {
          String regex = scalarString(e.value(), join(join(path, "patterns"), e.key()));
          if (regex != null) {
            patterns.put(e.key(), regex);
          }
        }
      }
    }
    if (problems.size() > before || name == null || file == null) {
      return;
    }
    try {
      io.fusillade.system.LogWatch.of(name, java.nio.file.Path.of(file), patterns);
    } catch (IllegalArgumentException e) {
      problem(patternsNode, join(path, "patterns"), e.getMessage());
      return;
    }
    logs.add(new LogMonitor(name, file, patterns));
  }
}
