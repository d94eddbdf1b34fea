package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.gatling.sql.SqlBalance;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.SettingValues;
import io.fusillade.workload.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * How the SQL requests of {@code fusillade run}, {@code limit} and {@code ladder} are bounded,
 * tried and balanced by zone: {@code --request-timeout}, {@code --max-tries}, {@code
 * --latency-limit}, {@code --zone} and {@code --node-zones}. Checked before anything starts ({@link
 * #check}), carried to the Gatling JVM in the run plan ({@link #requests}), read there by {@code
 * SqlTarget} and the ladder.
 */
final class SqlRequestOptions extends OptionGroup {
  @Option(
      names = "--request-timeout",
      paramLabel = "DURATION",
      description =
          "SQL: how long a query may run before it is cancelled on the server and counted as"
              + " timed out: 90s, 10m... (default 60s; fusillade ladder: 30m). A query's own"
              + " timeout: in the workload wins.")
  String requestTimeout;

  @Option(
      names = "--max-tries",
      paramLabel = "N",
      description =
          "SQL: the most tries of a query that fails with a serialization failure (SQLState"
              + " 40001) or a deadlock (40P01), as pgbench's --max-tries (default 1: no retry); a"
              + " query's own max_tries: in the workload wins.")
  Integer maxTries;

  @Option(
      names = "--latency-limit",
      paramLabel = "DURATION",
      description =
          "SQL: as pgbench's --latency-limit, queries slower than this (from their due time,"
              + " retries included) are counted late, and no retry starts after it: 50ms, 1s...")
  String latencyLimit;

  @Option(
      names = "--zone",
      paramLabel = "ZONE",
      description =
          "SQL: this injector's zone, for --balance zone (default: the environment variable "
              + SqlBalance.ZONE_VARIABLE
              + ").")
  String zone;

  @Option(
      names = "--node-zones",
      paramLabel = "ZONE",
      split = ",",
      description =
          "SQL: each node's zone, in order: the --url nodes then their replicas, or the embedded"
              + " primary then its --replicas (default: the workload's connection zones). Requests"
              + " are counted and timed per zone.")
  List<String> nodeZones = new ArrayList<>();

  /**
   * Checks the options before anything starts, for a run of {@code workload} on its nodes.
   *
   * @param workload the workload
   * @param urls the nodes {@code --url} names (null or empty: the workload's, or an embedded one)
   * @param replicaUrls the replicas {@code --replica-url} names
   * @param replicas the embedded server's replicas ({@code --replicas}), or null
   * @param balance {@code --balance}, or null
   * @throws FusilladeException naming the option, for a wrong value or one that cannot apply
   */
  void check(
      Workload workload,
      List<String> urls,
      List<String> replicaUrls,
      Integer replicas,
      String balance) {
    if (workload.queries().isEmpty()) {
      refuse("applies to SQL workloads (queries:)");
      return;
    }
    duration("--request-timeout", requestTimeout);
    duration("--latency-limit", latencyLimit);
    if (maxTries != null && (maxTries < 1 || maxTries > 1_000_000)) {
      throw new FusilladeException("--max-tries must be between 1 and 1000000, got " + maxTries);
    }
    List<String> zones = zones(workload, urls, replicaUrls, replicas);
    boolean zoneBalance =
        balance != null && balance.strip().toLowerCase(Locale.ROOT).equals("zone");
    if (zone != null && !zoneBalance) {
      throw new FusilladeException("--zone is the injector's zone for --balance zone");
    }
    if (zone != null && zone.isBlank()) {
      throw new FusilladeException("--zone needs a name");
    }
    if (zoneBalance) {
      String local = zone != null ? zone.strip() : System.getenv(SqlBalance.ZONE_VARIABLE);
      if (local == null || local.isBlank()) {
        throw new FusilladeException(
            "--balance zone needs this injector's zone: --zone ZONE (or the environment variable "
                + SqlBalance.ZONE_VARIABLE
                + ")");
      }
      if (!zones.contains(local.strip())) {
        throw new FusilladeException(
            "--balance zone: no node is in this injector's zone \""
                + local.strip()
                + "\""
                + (zones.stream().allMatch(String::isEmpty)
                    ? ": give the nodes' zones with --node-zones (or the workload's connection:"
                        + " urls: [{url: ..., zone: ...}])"
                    : " (the nodes' zones: " + String.join(", ", zones) + ")"));
      }
    }
  }

  /**
   * The nodes' zones as the run will have them: {@code --node-zones} (checked against the number of
   * nodes), else the workload's own connection's, else none.
   */
  private List<String> zones(
      Workload workload, List<String> urls, List<String> replicaUrls, Integer replicas) {
    boolean urlGiven = urls != null && !urls.isEmpty();
    int nodes;
    if (urlGiven) {
      nodes = urls.size() + replicaUrls.size();
    } else if (workload.connection().isPresent()) {
      nodes =
          workload.connection().get().urls().size()
              + (replicaUrls.isEmpty()
                  ? workload.connection().get().replicas().size()
                  : replicaUrls.size());
    } else {
      nodes = 1 + (replicas != null ? replicas : 0);
    }
    if (!nodeZones.isEmpty()) {
      if (nodeZones.stream().anyMatch(z -> z == null || z.isBlank())) {
        throw new FusilladeException("--node-zones: every node needs a zone name: " + nodeZones);
      }
      if (nodeZones.size() != nodes) {
        throw new FusilladeException(
            "--node-zones gives "
                + nodeZones.size()
                + " zones for "
                + nodes
                + " nodes (the --url nodes, or the embedded primary, then the replicas)");
      }
      return nodeZones.stream().map(String::strip).toList();
    }
    if (!urlGiven && workload.connection().isPresent()) {
      return workload.connection().get().zones();
    }
    return List.of();
  }

  static void duration(String option, String text) {
    if (text == null) {
      return;
    }
    Duration parsed;
    try {
      parsed = SettingValues.parseDuration(text);
    } catch (IllegalArgumentException e) {
      throw new FusilladeException(
          option + ": \"" + text + "\" is not a duration (examples: 500ms, 90s, 10m, 1h)");
    }
    if (parsed.isZero() || parsed.isNegative()) {
      throw new FusilladeException(option + " must be > 0, got " + text);
    }
  }

  /** The requests' settings over {@code base} (the documented {@code -D}'s), for the plan. */
  RunPlan.Requests requests(RunPlan.Requests base) {
    return new RunPlan.Requests(
        requestTimeout != null ? SettingValues.parseDuration(requestTimeout) : base.timeout(),
        maxTries != null ? maxTries : base.maxTries(),
        latencyLimit != null ? SettingValues.parseDuration(latencyLimit) : base.latencyLimit(),
        zone != null ? zone.strip() : base.zone(),
        nodeZones.isEmpty() ? base.nodeZones() : nodeZones.stream().map(String::strip).toList());
  }
}
