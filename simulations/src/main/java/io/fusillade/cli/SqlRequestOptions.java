package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.gatling.sql.SqlBalance;
import io.fusillade.record.SettingValues;
import io.fusillade.scenarios.sql.SqlTarget;
import io.fusillade.workload.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * How the SQL requests of {@code fusillade run}, {@code limit} and {@code ladder} are bounded,
 * tried and balanced by zone: {@code --request-timeout}, {@code --set-timeout} (ladder), {@code
 * --max-tries}, {@code --latency-limit}, {@code --zone} and {@code --node-zones}. A picocli mixin:
 * checked before anything starts ({@link #check}), handed to the Gatling JVM as system properties
 * ({@link #forkProperties}), read there by {@code SqlTarget} and the ladder.
 */
final class SqlRequestOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = "--request-timeout",
      paramLabel = "DURATION",
      description =
          "SQL: how long a query may run before it is cancelled on the server and counted as"
              + " timed out: 90s, 10m... (default 60s; fusillade ladder: 30m). A query's own"
              + " timeout: in the workload wins.")
  String requestTimeout;

  @Option(
      names = "--set-timeout",
      paramLabel = "DURATION",
      description =
          "fusillade ladder: how long a session's whole query set may run: the query running then"
              + " is cancelled, the rest of the set is not sent (default: no limit).")
  String setTimeout;

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

  /** The options of SQL workloads only. */
  private static final List<String> NAMES =
      List.of(
          "--request-timeout",
          "--set-timeout",
          "--max-tries",
          "--latency-limit",
          "--zone",
          "--node-zones");

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
      for (String option : NAMES) {
        if (mixee.commandLine().getParseResult().hasMatchedOption(option)) {
          throw new FusilladeException(option + " applies to SQL workloads (queries:)");
        }
      }
      return;
    }
    duration("--request-timeout", requestTimeout);
    duration("--latency-limit", latencyLimit);
    duration("--set-timeout", setTimeout);
    if (setTimeout != null && !mixee.name().equals("ladder")) {
      throw new FusilladeException(
          "--set-timeout applies to fusillade ladder, whose sessions run a query set; here a"
              + " query's timeout is --request-timeout");
    }
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

  private static void duration(String option, String text) {
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

  /** The options given, as the Gatling JVM reads them (see {@link SqlTarget}). */
  Map<String, String> forkProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    if (requestTimeout != null) {
      properties.put(SqlTarget.REQUEST_TIMEOUT_PROPERTY, requestTimeout.strip());
    }
    if (setTimeout != null) {
      properties.put(SqlTarget.SET_TIMEOUT_PROPERTY, setTimeout.strip());
    }
    if (maxTries != null) {
      properties.put(SqlTarget.MAX_TRIES_PROPERTY, maxTries.toString());
    }
    if (latencyLimit != null) {
      properties.put(SqlTarget.LATENCY_LIMIT_PROPERTY, latencyLimit.strip());
    }
    if (zone != null) {
      properties.put(SqlBalance.ZONE_PROPERTY, zone.strip());
    }
    if (!nodeZones.isEmpty()) {
      properties.put(
          SqlTarget.NODE_ZONES_PROPERTY,
          String.join(",", nodeZones.stream().map(String::strip).toList()));
    }
    return properties;
  }
}
