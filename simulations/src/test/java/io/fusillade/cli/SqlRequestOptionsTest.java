package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --request-timeout}, {@code --set-timeout}, {@code --max-tries}, {@code --latency-limit},
 * {@code --zone} and {@code --node-zones}: a wrong value, or one that cannot apply to the run, is
 * one line naming the option and exit code 2, before anything starts (the URL below refuses
 * connections: a run would fail there, later).
 */
class SqlRequestOptionsTest {
  private static final String URL = "jdbc:postgresql://127.0.0.1:1/x";

  @TempDir Path dir;

  private CliRun run(String... options) throws Exception {
    Path file = dir.resolve("w.yml");
    Files.writeString(file, "queries:\n  - sql: select 1\n");
    List<String> args = new ArrayList<>(List.of("run", file.toString(), "--url", URL));
    args.addAll(List.of(options));
    return CliRun.of(args.toArray(String[]::new));
  }

  private static void refused(CliRun run, String message) {
    assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(2);
    assertThat(run.err().strip()).isEqualTo("fusillade: " + message);
  }

  @Test
  void wrongNumbersAndDurationsAreNamed() throws Exception {
    refused(run("--max-tries", "0"), "--max-tries must be between 1 and 1000000, got 0");
    refused(
        run("--request-timeout", "soon"),
        "--request-timeout: \"soon\" is not a duration (examples: 500ms, 90s, 10m, 1h)");
    refused(run("--latency-limit", "0ms"), "--latency-limit must be > 0, got 0ms");
  }

  @Test
  void aSetTimeoutIsTheLaddersOnly() throws Exception {
    // run has no query set: the option is unknown to it, not ignored
    CliRun run = run("--set-timeout", "1h");
    assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
    assertThat(run.err()).contains("Unknown options: '--set-timeout'");
    Path file = dir.resolve("w.yml");
    refused(
        CliRun.of("ladder", file.toString(), "--url", URL, "--levels", "1", "--set-timeout", "0s"),
        "--set-timeout must be > 0, got 0s");
  }

  @Test
  void zoneBalancingNeedsTheInjectorsZoneAndANodeInIt() throws Exception {
    refused(run("--zone", "eu-1"), "--zone is the injector's zone for --balance zone");
    refused(
        run("--balance", "zone", "--zone", "eu-1"),
        "--balance zone: no node is in this injector's zone \"eu-1\": give the nodes' zones with"
            + " --node-zones (or the workload's connection: urls: [{url: ..., zone: ...}])");
    refused(
        run("--balance", "zone", "--zone", "eu-1", "--node-zones", "us-1"),
        "--balance zone: no node is in this injector's zone \"eu-1\" (the nodes' zones: us-1)");
    refused(
        run("--node-zones", "eu-1,us-1"),
        "--node-zones gives 2 zones for 1 nodes (the --url nodes, or the embedded primary, then"
            + " the replicas)");
  }

  @Test
  void theyApplyToSqlWorkloadsOnly() {
    CliRun logs = CliRun.of("run", RunLogsCommandTest.LOGS.toString(), "--max-tries", "3");
    refused(logs, "--max-tries applies to SQL workloads (queries:)");
  }

  @Test
  void theEmbeddedPrimaryAndItsReplicasAreCountedForTheZones() throws Exception {
    Path file = dir.resolve("w.yml");
    Files.writeString(file, "queries:\n  - sql: select 1\n");
    refused(
        CliRun.of("run", file.toString(), "--replicas", "1", "--node-zones", "eu-1"),
        "--node-zones gives 1 zones for 2 nodes (the --url nodes, or the embedded primary, then"
            + " the replicas)");
  }
}
