package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.metrics.InfluxPush;
import io.fusillade.gatling.metrics.LiveMetrics;
import io.fusillade.record.RunSettings;
import io.fusillade.workload.Workload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What {@code fusillade run} hands its Gatling JVM besides the workload: the {@code fusillade.*}
 * settings given to it with {@code -D} (in {@code FUSILLADE_JAVA_OPTS}), which used to stop at the
 * fork; and its balancing and failover options, checked before anything starts.
 */
class RunOptionsForwardingTest {
  @TempDir Path dir;

  @Test
  void fusilladeSettingsOfThisJvmReachTheForkButNotItsParentPid() {
    Properties mine = new Properties();
    mine.setProperty("fusillade.failover", "5s");
    mine.setProperty("fusillade.system.processes", "postgres");
    mine.setProperty("fusillade.injector.lagThreshold", "50");
    mine.setProperty("fusillade.parentPid", "1234");
    mine.setProperty("user.home", "/root");
    assertThat(RunCommand.forwardedProperties(mine))
        .containsOnlyKeys(
            "fusillade.failover", "fusillade.system.processes", "fusillade.injector.lagThreshold")
        .containsEntry("fusillade.failover", "5s");
  }

  @Test
  void anUnknownBalanceOrABadFailoverIsAUserErrorBeforeTheFork() throws Exception {
    Path file = dir.resolve("w.yml");
    Files.writeString(file, "queries:\n  - sql: select 1\n");
    String url = "jdbc:postgresql://127.0.0.1:1/x";
    CliRun balance = CliRun.of("run", file.toString(), "--url", url, "--balance", "sticky");
    assertThat(balance.exitCode()).isEqualTo(2);
    assertThat(balance.err().strip())
        .isEqualTo(
            "fusillade: --balance: 'sticky' is not one of round-robin, random, weighted:2,1,1 or"
                + " consistent-hash");
    CliRun failover = CliRun.of("run", file.toString(), "--url", url, "--failover", "soon");
    assertThat(failover.exitCode()).isEqualTo(2);
    assertThat(failover.err().strip())
        .isEqualTo("fusillade: --failover: \"soon\" is not a duration (examples: 500ms, 2s, 1m)");
  }

  /**
   * An option whose value the Gatling JVM reads: the system property that carries it there, the
   * arguments that give it, and those it needs beside it to mean anything (a spike's rise needs its
   * peak).
   */
  private record Forwarded(String property, List<String> given, List<String> beside) {
    Forwarded(String property, String... given) {
      this(property, List.of(given), List.of());
    }

    Forwarded besides(String... others) {
      return new Forwarded(property, given, List.of(others));
    }
  }

  private static final Map<String, Forwarded> FORWARDED =
      Map.ofEntries(
          Map.entry("--mode", new Forwarded(RunSettings.MODE, "--mode", "queue")),
          Map.entry("--check", new Forwarded(RunSettings.CHECKS, "--check", "p99 < 5ms")),
          Map.entry("--rate", new Forwarded(RunSettings.RATE, "--rate", "77")),
          Map.entry("--duration", new Forwarded(RunSettings.DURATION, "--duration", "7s")),
          Map.entry("--peak", new Forwarded(RunSettings.PEAK, "--peak", "500")),
          Map.entry(
              "--rise", new Forwarded(RunSettings.RISE, "--rise", "3s").besides("--peak", "500")),
          Map.entry(
              "--hold", new Forwarded(RunSettings.HOLD, "--hold", "3s").besides("--peak", "500")),
          Map.entry(
              "--fall", new Forwarded(RunSettings.FALL, "--fall", "3s").besides("--peak", "500")),
          Map.entry(
              "--users",
              new Forwarded(RunSettings.USERS, "--users", "3").besides("--mode", "queue")),
          Map.entry("--seed", new Forwarded(RunSettings.SEED, "--seed", "9")),
          Map.entry("--pool", new Forwarded(RunSettings.POOL, "--pool", "3")),
          Map.entry("--engine", new Forwarded(RunSettings.ENGINE, "--engine", "native")),
          Map.entry(
              "--balance", new Forwarded(RunSettings.BALANCE, "--balance", "consistent-hash")),
          Map.entry("--setup", new Forwarded(RunSettings.SETUP, "--setup", "false")),
          Map.entry("--teardown", new Forwarded(RunSettings.TEARDOWN, "--teardown")),
          Map.entry(
              "--url", new Forwarded(RunSettings.URLS, "--url", "jdbc:postgresql://127.0.0.1:5/x")),
          Map.entry("--user", new Forwarded(RunSettings.USER, "--user", "bob")),
          Map.entry(
              "--metrics-port", new Forwarded(LiveMetrics.PORT_PROPERTY, "--metrics-port", "9400")),
          Map.entry(
              "--metrics-hold", new Forwarded(LiveMetrics.HOLD_PROPERTY, "--metrics-hold", "5s")),
          Map.entry(
              "--influx-url",
              new Forwarded(
                  InfluxPush.URL_PROPERTY,
                  "--influx-url",
                  "http://127.0.0.1:8086/api/v2/write?org=o&bucket=b")),
          Map.entry(
              "--abort-when",
              new Forwarded(FusilladeRun.ABORT_PROPERTY, "--abort-when", "errors > 5% over 10s")),
          Map.entry(
              "--fault",
              new Forwarded(FusilladeRun.FAULTS_PROPERTY, "--fault", "at 5s kill postgres for 2s")),
          Map.entry("--injectors", new Forwarded("fusillade.injectors", "--injectors", "3")),
          Map.entry(
              "--injector-index",
              new Forwarded("fusillade.injectorIndex", "--injector-index", "1")),
          Map.entry(
              "--start-at",
              new Forwarded("fusillade.startAt", "--start-at", "2026-11-25T20:30:00Z")),
          Map.entry("--failover", new Forwarded("fusillade.failover", "--failover", "5s")),
          Map.entry(
              "--watch-process",
              new Forwarded("fusillade.system.processes", "--watch-process", "postgres")),
          Map.entry("--profile", new Forwarded("fusillade.profile", "--profile")),
          Map.entry(
              "--monitor",
              new Forwarded("fusillade.monitor", "--monitor", "db=http://db1:9100/metrics")),
          Map.entry("--files", new Forwarded("fusillade.logs.files", "--files", "data/*.ndjson")),
          Map.entry("--replicas", new Forwarded("fusillade.postgres.replicas", "--replicas", "2")),
          Map.entry("--nodes", new Forwarded("fusillade.opensearch.nodes", "--nodes", "3")),
          Map.entry("--target", new Forwarded("fusillade.logs.target", "--target", "seq-db")),
          Map.entry(
              "--seqdb-binary",
              new Forwarded("fusillade.seqdb.binary", "--seqdb-binary", "/opt/seq-db")),
          Map.entry(
              "--replica-url",
              new Forwarded(
                      "fusillade.replicaUrls", "--replica-url", "jdbc:postgresql://127.0.0.1:6/x")
                  .besides("--url", "jdbc:postgresql://127.0.0.1:5/x")),
          Map.entry(
              "--server-setting",
              new Forwarded(
                  "fusillade.postgres.settings",
                  "--server-setting",
                  "max_parallel_workers_per_gather=0")));

  /** Options the command acts on itself, and why none of them is the Gatling JVM's business. */
  private static final Map<String, String> COMMAND_ONLY =
      Map.of(
          "--output", "where the record and reports go: the launcher's directories",
          "--gatling-report", "Gatling's results or not: the launcher's arguments (-nr, writers)",
          "--help", "picocli's usage, printed before anything runs",
          "--version", "picocli's version, printed before anything runs");

  @Test
  void everyOptionOfRunReachesTheGatlingJvmOrIsTheCommandsOwn() throws Exception {
    Set<String> options = new HashSet<>();
    for (OptionSpec option : new CommandLine(new RunCommand()).getCommandSpec().options()) {
      options.add(option.longestName());
    }
    Set<String> known = new HashSet<>(FORWARDED.keySet());
    known.addAll(COMMAND_ONLY.keySet());
    assertThat(options)
        .as("a new option of fusillade run: forward it (RunCommand.forkProperties) and add it here")
        .containsExactlyInAnyOrderElementsOf(known);

    Path file = dir.resolve("w.yml");
    Files.writeString(file, "queries:\n  - sql: select 1\n");
    for (Map.Entry<String, Forwarded> entry : FORWARDED.entrySet()) {
      Forwarded forwarded = entry.getValue();
      List<String> with = new ArrayList<>(forwarded.beside());
      with.addAll(forwarded.given());
      String before = forkProperties(file, forwarded.beside()).get(forwarded.property());
      String after = forkProperties(file, with).get(forwarded.property());
      assertThat(after)
          .as("%s reaches the Gatling JVM as %s", entry.getKey(), forwarded.property())
          .isNotNull()
          .isNotEqualTo(before);
    }
  }

  /** The system properties {@code fusillade run FILE args} would give its Gatling JVM. */
  private static Map<String, String> forkProperties(Path file, List<String> args) {
    RunCommand command = new RunCommand();
    CommandLine cli = new CommandLine(command);
    cli.setOut(new PrintWriter(new StringWriter())); // the default checks are said there
    List<String> all = new ArrayList<>(List.of(file.toString()));
    all.addAll(args);
    cli.parseArgs(all.toArray(String[]::new));
    Workload workload = WorkloadFiles.load(file);
    command.abortRules = command.abortRules(workload);
    command.faults = command.faults(workload);
    command.monitored = command.monitored(workload);
    return command.forkProperties(command.sqlSettings(workload));
  }
}
