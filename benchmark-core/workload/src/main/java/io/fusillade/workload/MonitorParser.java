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
 * The URL may use {@code ${env:NAME}}, for a password kept out of the file.
 */
final class MonitorParser extends FieldReader {
  private static final Set<String> KEYS = keys("name", "url", "filesystem", "metrics");

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
    return targets;
  }
}
