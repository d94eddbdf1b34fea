package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.record.SettingValues;
import io.fusillade.scenarios.sql.SqlTarget;
import io.fusillade.sql.SqlEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * How an SQL workload's client reaches its database, and the embedded PostgreSQL when no {@code
 * --url} names one: the options of SQL workloads only.
 */
final class SqlOptions extends OptionGroup {
  @Option(names = "--pool", description = "Connections per node (default 8).")
  Integer pool;

  @Option(
      names = "--engine",
      description =
          "jdbc (any JDBC driver, the default) or native (PostgreSQL's protocol on Gatling's"
              + " event loops: far less CPU per request).")
  String engine;

  @Option(
      names = "--balance",
      description =
          "How queries are spread over the --url nodes: round-robin (the default), random,"
              + " weighted:2,1,1 (one weight per node) or consistent-hash (each query's first"
              + " parameter is its key: one key, one node).")
  String balance;

  @Option(
      names = "--failover",
      paramLabel = "DURATION",
      description =
          "The longest wait between two probes of a node that is down, before it takes queries"
              + " again: 500ms, 5s... (default 2s).")
  String failover;

  @Option(
      names = "--replica-url",
      paramLabel = "URL",
      description =
          "A streaming replica of the --url nodes, which takes reads only (repeatable); default:"
              + " the workload's connection.replicas.")
  List<String> replicaUrls = new ArrayList<>();

  @Option(
      names = "--setup",
      description = "Create and fill the tables first: auto (embedded only), true, false.")
  String setup;

  @Option(names = "--teardown", description = "Drop the tables at the end.")
  boolean teardown;

  @Option(
      names = "--replicas",
      paramLabel = "N",
      description =
          "Start the embedded PostgreSQL with N streaming replicas (0 to 8; hot standbys on ports"
              + " of their own): reads are balanced over the primary and the replicas, writes go"
              + " to the primary; faults name the replicas postgres 2, 3...")
  Integer replicas;

  @Option(
      names = "--server-setting",
      paramLabel = "NAME=VALUE",
      description =
          "A postgresql.conf setting of the embedded PostgreSQL, e.g."
              + " max_parallel_workers_per_gather=0 (repeatable); run.json's sql.server names it.")
  List<String> serverSettings = new ArrayList<>();

  /** Checks each value, naming the option: before anything starts. */
  void validate() {
    if (pool != null && pool <= 0) {
      throw new FusilladeException("--pool must be > 0, got " + pool);
    }
    if (engine != null) {
      try {
        SqlEngine.of(engine);
      } catch (IllegalArgumentException e) {
        throw new FusilladeException("--engine: " + e.getMessage());
      }
    }
    if (balance != null) {
      try {
        SqlTarget.balance(balance);
      } catch (IllegalArgumentException e) {
        throw new FusilladeException("--balance: " + e.getMessage());
      }
    }
    failover();
    if (replicas != null && (replicas < 0 || replicas > 8)) {
      throw new FusilladeException("--replicas must be 0 to 8, got " + replicas);
    }
    for (String setting : serverSettings) {
      try {
        SqlTarget.serverSetting(setting);
      } catch (IllegalArgumentException e) {
        throw new FusilladeException("--server-setting: " + e.getMessage());
      }
    }
    if (setup != null && !List.of("auto", "true", "false").contains(setup)) {
      throw new FusilladeException("--setup must be auto, true or false, got \"" + setup + "\"");
    }
  }

  /**
   * Refuses what shapes the embedded server when the database is given ({@code --url} or the
   * workload's connection), and the replicas of given nodes when it is not.
   *
   * @param external whether the database is given
   */
  void checkTarget(boolean external) {
    if (!serverSettings.isEmpty() && external) {
      throw new FusilladeException(
          "--server-setting applies to the embedded PostgreSQL, not to a server given by --url or"
              + " the workload's connection: set it on that server");
    }
    if (replicas != null && replicas > 0 && external) {
      throw new FusilladeException(
          "--replicas starts replicas of the embedded PostgreSQL; for a server given by --url or"
              + " the workload's connection, name its replicas with --replica-url");
    }
    if (!replicaUrls.isEmpty() && !external) {
      throw new FusilladeException(
          "--replica-url names replicas of the --url nodes; the embedded PostgreSQL starts its"
              + " own with --replicas N");
    }
  }

  /** {@code --failover}, or null. */
  Duration failover() {
    if (failover == null) {
      return null;
    }
    try {
      Duration parsed = SettingValues.parseDuration(failover);
      if (parsed.isNegative()) {
        throw new IllegalArgumentException("negative");
      }
      return parsed;
    } catch (IllegalArgumentException e) {
      throw new FusilladeException(
          "--failover: \"" + failover + "\" is not a duration (examples: 500ms, 2s, 1m)");
    }
  }
}
