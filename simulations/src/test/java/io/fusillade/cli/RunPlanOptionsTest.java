package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.plan.PlanProperties;
import io.fusillade.plan.RunPlan;
import io.fusillade.workload.Workload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What {@code fusillade run} hands its Gatling JVM: one {@link RunPlan}, which every option of the
 * command changes (or the option is the command's own), laid over the documented {@code -D}
 * settings given to the command ({@code FUSILLADE_JAVA_OPTS}); and its options' values, checked
 * before anything starts.
 */
class RunPlanOptionsTest {
  @TempDir Path dir;

  @Test
  void theDocumentedSettingsOfThisJvmReachThePlanUnderTheOptions() throws Exception {
    Path file = sql();
    // the suite's own setting, if any (see the module's surefire configuration), put back after
    String suiteLagThreshold = System.getProperty(PlanProperties.LAG_THRESHOLD);
    System.setProperty(PlanProperties.LAG_THRESHOLD, "50");
    System.setProperty(PlanProperties.FAILOVER, "5s");
    try {
      RunPlan plan = plan(file, List.of());
      assertThat(plan.telemetry().lagThreshold()).isEqualTo(Duration.ofMillis(50));
      assertThat(plan.sql().failover()).isEqualTo(Duration.ofSeconds(5));
      assertThat(plan(file, List.of("--failover", "1s")).sql().failover())
          .isEqualTo(Duration.ofSeconds(1));
    } finally {
      if (suiteLagThreshold == null) {
        System.clearProperty(PlanProperties.LAG_THRESHOLD);
      } else {
        System.setProperty(PlanProperties.LAG_THRESHOLD, suiteLagThreshold);
      }
      System.clearProperty(PlanProperties.FAILOVER);
    }
  }

  @Test
  void anUnknownBalanceOrABadFailoverIsAUserErrorBeforeTheFork() throws Exception {
    Path file = sql();
    String url = "jdbc:postgresql://127.0.0.1:1/x";
    CliRun balance = CliRun.of("run", file.toString(), "--url", url, "--balance", "sticky");
    assertThat(balance.exitCode()).isEqualTo(2);
    assertThat(balance.err().strip())
        .isEqualTo(
            "fusillade: --balance: 'sticky' is not one of round-robin, random, weighted:2,1,1,"
                + " consistent-hash or zone");
    CliRun failover = CliRun.of("run", file.toString(), "--url", url, "--failover", "soon");
    assertThat(failover.exitCode()).isEqualTo(2);
    assertThat(failover.err().strip())
        .isEqualTo("fusillade: --failover: \"soon\" is not a duration (examples: 500ms, 2s, 1m)");
  }

  /**
   * An option and the arguments that give it, with those it needs beside it to mean anything (a
   * spike's rise needs its peak, queue mode's users need queue mode).
   */
  private record Given(List<String> given, List<String> beside) {
    Given(String... given) {
      this(List.of(given), List.of());
    }

    Given besides(String... others) {
      return new Given(given, List.of(others));
    }
  }

  private static final String URL = "jdbc:postgresql://127.0.0.1:5/x";

  /** Every option of run that the plan carries, with a value that changes it. */
  private static final Map<String, Given> IN_THE_PLAN =
      Map.ofEntries(
          Map.entry("--mode", new Given("--mode", "queue")),
          Map.entry("--check", new Given("--check", "p99 < 5ms")),
          Map.entry("--rate", new Given("--rate", "77")),
          Map.entry("--duration", new Given("--duration", "7s")),
          Map.entry("--peak", new Given("--peak", "500")),
          Map.entry("--rise", new Given("--rise", "3s").besides("--peak", "500")),
          Map.entry("--hold", new Given("--hold", "3s").besides("--peak", "500")),
          Map.entry("--fall", new Given("--fall", "3s").besides("--peak", "500")),
          Map.entry("--users", new Given("--users", "3").besides("--mode", "queue")),
          Map.entry("--seed", new Given("--seed", "9")),
          Map.entry("--pool", new Given("--pool", "3")),
          Map.entry("--engine", new Given("--engine", "native")),
          Map.entry("--balance", new Given("--balance", "consistent-hash")),
          Map.entry("--setup", new Given("--setup", "false")),
          Map.entry("--teardown", new Given("--teardown")),
          Map.entry("--url", new Given("--url", URL)),
          Map.entry("--user", new Given("--user", "bob")),
          Map.entry("--metrics-port", new Given("--metrics-port", "9400")),
          Map.entry(
              "--metrics-hold",
              new Given("--metrics-hold", "5s").besides("--metrics-port", "9400")),
          Map.entry(
              "--influx-url",
              new Given("--influx-url", "http://127.0.0.1:8086/api/v2/write?org=o&bucket=b")),
          Map.entry("--abort-when", new Given("--abort-when", "errors > 5% over 10s")),
          Map.entry("--fault", new Given("--fault", "at 5s kill postgres for 2s")),
          Map.entry("--injectors", new Given("--injectors", "3").besides("--url", URL)),
          Map.entry(
              "--injector-index",
              new Given("--injector-index", "1").besides("--injectors", "3", "--url", URL)),
          Map.entry("--start-at", new Given("--start-at", "2026-11-25T20:30:00Z")),
          Map.entry("--failover", new Given("--failover", "5s")),
          Map.entry("--request-timeout", new Given("--request-timeout", "10m")),
          Map.entry("--max-tries", new Given("--max-tries", "3")),
          Map.entry("--latency-limit", new Given("--latency-limit", "50ms")),
          Map.entry(
              "--zone",
              // --balance zone cannot go without the injector's zone: given together
              new Given("--zone", "eu-1", "--balance", "zone", "--node-zones", "eu-1")),
          Map.entry("--node-zones", new Given("--node-zones", "eu-1")),
          Map.entry("--queries", new Given("--queries", "query1")),
          Map.entry("--watch-process", new Given("--watch-process", "postgres")),
          Map.entry("--jfr", new Given("--jfr")),
          Map.entry("--monitor", new Given("--monitor", "db=http://db1:9100/metrics")),
          Map.entry("--replicas", new Given("--replicas", "2")),
          Map.entry(
              "--replica-url",
              new Given("--replica-url", "jdbc:postgresql://127.0.0.1:6/x").besides("--url", URL)),
          Map.entry("--server-setting", new Given("--server-setting", "work_mem=8MB")),
          Map.entry("--output", new Given("--output", "elsewhere")),
          Map.entry("--gatling-report", new Given("--gatling-report")),
          Map.entry("--slo", new Given("--slo", "p99 < 20ms").besides("--mode", "adaptive")),
          Map.entry("--min-rate", new Given("--min-rate", "5").besides("--mode", "adaptive")),
          Map.entry("--max-rate", new Given("--max-rate", "500").besides("--mode", "adaptive")),
          Map.entry("--lanes", new Given("--lanes", "8").besides("--mode", "adaptive")));

  /** Options of another kind of workload, each with its own test of the plan. */
  private static final Map<String, String> OTHER_KINDS =
      Map.of(
          "--files", "logs workloads: LogsKindTest",
          "--nodes", "logs workloads: LogsKindTest",
          "--target", "logs workloads: RunLogsSeqDbTest",
          "--seqdb-binary", "logs workloads: RunLogsSeqDbTest");

  /** Options the command acts on itself. */
  private static final Map<String, String> COMMAND_ONLY =
      Map.of(
          "--help", "picocli's usage, printed before anything runs",
          "--version", "picocli's version, printed before anything runs");

  @Test
  void everyOptionOfRunChangesThePlanOrIsTheCommandsOwn() throws Exception {
    Set<String> options = new HashSet<>();
    for (OptionSpec option : new CommandLine(new RunCommand()).getCommandSpec().options()) {
      options.add(option.longestName());
    }
    Set<String> known = new HashSet<>(IN_THE_PLAN.keySet());
    known.addAll(OTHER_KINDS.keySet());
    known.addAll(COMMAND_ONLY.keySet());
    assertThat(options)
        .as("a new option of fusillade run: carry it in the run plan and add it here")
        .containsExactlyInAnyOrderElementsOf(known);

    Path file = sql();
    for (Map.Entry<String, Given> entry : IN_THE_PLAN.entrySet()) {
      Given option = entry.getValue();
      List<String> with = new ArrayList<>(option.beside());
      with.addAll(option.given());
      assertThat(plan(file, with))
          .as("%s changes the run plan", entry.getKey())
          .isNotEqualTo(plan(file, option.beside()));
    }
  }

  @Test
  void adaptiveModeCarriesItsSettingsInThePlanOverTheWorkloadsSection() throws Exception {
    Path file = dir.resolve("a.yml");
    Files.writeString(
        file, "queries:\n  - sql: select 1\nadaptive:\n  start: 50\n  max: 900\n  increase: 5%\n");
    RunPlan plan =
        plan(file, List.of("--mode", "adaptive", "--duration", "90s", "--slo", "p99 < 20ms"));
    assertThat(plan.adaptive()).isNotNull();
    assertThat(plan.adaptive().start()).isEqualTo(50);
    assertThat(plan.adaptive().max()).isEqualTo(900);
    assertThat(plan.adaptive().increase()).isEqualTo(0.05);
    assertThat(plan.adaptive().duration()).isEqualTo(Duration.ofSeconds(90));
    assertThat(plan.adaptive().slo()).containsExactly("p99 < 20ms");
    assertThat(plan.settings().checks()).isEmpty();
    assertThat(plan(file, List.of("--mode", "adaptive", "--rate", "70")).adaptive().start())
        .isEqualTo(70);
    assertThat(plan(file, List.of("--mode", "rate")).adaptive()).isNull();
    assertThat(plan(file, List.of("--mode", "adaptive")).control().deadline())
        .isGreaterThan(Duration.ofMinutes(10).plus(RunPlanner.DEADLINE_MARGIN));
  }

  @Test
  void aFilesAdaptiveSectionRunsAdaptivelyUnlessModeSaysOtherwiseAndIsNeverIgnoredSilently()
      throws Exception {
    Path file = dir.resolve("s.yml");
    Files.writeString(file, "queries:\n  - sql: select 1\nadaptive:\n  start: 40\n");
    assertThat(plan(file, List.of()).adaptive().start()).isEqualTo(40);
    StringWriter console = new StringWriter();
    assertThat(plan(file, List.of("--mode", "rate"), new PrintWriter(console)).adaptive()).isNull();
    assertThat(console.toString())
        .contains("the workload's adaptive: section is left out: --mode rate runs the load");
    assertThat(plan(sql(), List.of()).adaptive()).isNull();
  }

  private Path sql() throws Exception {
    Path file = dir.resolve("w.yml");
    Files.writeString(file, "queries:\n  - sql: select 1\n");
    return file;
  }

  /** The plan {@code fusillade run FILE args} would give its Gatling JVM. */
  private static RunPlan plan(Path file, List<String> args) {
    return plan(file, args, new PrintWriter(new StringWriter())); // default checks are said there
  }

  private static RunPlan plan(Path file, List<String> args, PrintWriter quiet) {
    RunCommand command = new RunCommand();
    CommandLine cli = new CommandLine(command);
    cli.setOut(quiet);
    List<String> all = new ArrayList<>(List.of(file.toString()));
    all.addAll(args);
    cli.parseArgs(all.toArray(String[]::new));
    Workload workload = WorkloadFiles.load(file);
    return RunPlanner.plan(command.inputs().withWorkload(workload), null, null, quiet).plan();
  }
}
