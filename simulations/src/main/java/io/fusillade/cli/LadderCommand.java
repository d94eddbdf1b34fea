package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.local.LocalPostgres;
import io.fusillade.local.LocalPostgresCluster;
import io.fusillade.plan.ExitCode;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.reports.runs.Ladder;
import io.fusillade.reports.runs.RunComparison;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.RunMetrics;
import io.fusillade.reports.stats.Comparison;
import io.fusillade.scenarios.sql.SqlLadderRun;
import io.fusillade.scenarios.sql.SqlTarget;
import io.fusillade.starve.CpuStarvation;
import io.fusillade.starve.CpuStarve;
import io.fusillade.workload.Workload;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fusillade ladder WORKLOAD --levels 1,2,4 --repeats 3}: the analytical team's concurrency
 * ladder. At each level N, N sessions each run the workload's whole query set once ({@link
 * SqlLadderRun}); each level is repeated; every run is a record of its own under one directory, and
 * the table of medians per query and level follows (with {@code --baseline}, the % change per
 * level). A level is a measurement, not a test: its runs are kept whatever happens to them, a run
 * that failed (errors, timeouts, a check the user asked for, a crash) is marked {@code x} in the
 * table with its reason, and the ladder goes on to the next level unless {@code --stop-on-failure}.
 * Without {@code --url}, one embedded PostgreSQL (with {@code --replicas}) serves every run, filled
 * once.
 */
@Command(
    name = "ladder",
    mixinStandardHelpOptions = true,
    description = {
      "Runs a query set at rising concurrency, compared level by level.",
      "At each of --levels N, N sessions each run the whole query set once (each query timed,",
      "and the set as 'query set'); each level runs --repeats times, each run a record of its",
      "own under OUTPUT/ladder-TIME. The table shows the median over repeats of each query's",
      "median time per level, the time of the whole set (the last session's), and the sets",
      "completed per second. A run that failed (errors, timeouts, a --check, a crash) is kept",
      "and marked x with its reason; the ladder goes on unless --stop-on-failure. With",
      "--baseline (an earlier ladder's directory), each cell adds its %% change with compare's",
      "verdict, and a last column the median %% over levels. Exit code 3 when a run failed or a",
      "level got worse, 1 when a run could not run at all; the table is printed either way.",
      "The connection options of fusillade run apply (--url, --user, --pool, --engine, --seed,",
      "--setup...)."
    })
final class LadderCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "WORKLOAD", description = "The workload YAML file.")
  Path file;

  @Option(
      names = "--levels",
      split = ",",
      paramLabel = "N",
      description =
          "Sessions at each level, in order, as the seed writes them: 1,4,8,12,16 (default"
              + " 1,2,4,8,16).")
  List<Integer> levels = new ArrayList<>(List.of(1, 2, 4, 8, 16));

  @Option(names = "--repeats", description = "Runs per level (default 3).")
  int repeats = 3;

  @Option(
      names = "--baseline",
      paramLabel = "DIR",
      description = "An earlier ladder's directory (its runs), to compare with level by level.")
  Path baseline;

  @Option(
      names = "--stop-on-failure",
      description = "Stop at the first run that failed (the table is printed all the same).")
  boolean stopOnFailure;

  @Mixin TargetOptions target = new TargetOptions();
  @Mixin SqlOptions sql = new SqlOptions();
  @Mixin SqlRequestOptions requests = new SqlRequestOptions();
  @Mixin QueriesOption querySet = new QueriesOption();

  @Option(
      names = "--set-timeout",
      paramLabel = "DURATION",
      description =
          "How long a session's whole query set may run: the query running then is cancelled,"
              + " the rest of the set is not sent (default: no limit).")
  String setTimeout;

  @Option(
      names = "--starve",
      paramLabel = "SPEC",
      description =
          "Starve the embedded PostgreSQL of CPU during every run: cpu=N (the CPUs left to it: a"
              + " cgroup quota where the machine allows one, else taskset onto N cores),"
              + " burners=M (busy loops sharing those CPUs), mechanism=auto|cgroup|taskset; e.g."
              + " cpu=1,burners=1. Recorded in each run.json and drawn as a fault band.")
  String starve;

  @Mixin CheckOptions checks = new CheckOptions();
  @Mixin RunControlOptions control = new RunControlOptions();
  @Mixin OutputOptions outputs = new OutputOptions();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    RunInputs in =
        new RunInputs(
            "ladder", file, null, target, sql, requests, querySet, null, null, null, null, control,
            checks, outputs);
    RunPlanner.validateGroups(in);
    outputs.refuseBucket("ladder");
    if (levels.isEmpty() || levels.stream().anyMatch(l -> l == null || l < 1)) {
      throw new FusilladeException("--levels must be whole numbers >= 1, got " + levels);
    }
    if (repeats < 1) {
      throw new FusilladeException("--repeats must be >= 1, got " + repeats);
    }
    List<RunData> baselineRuns = baseline == null ? null : RunMetrics.load(List.of(baseline));
    CpuStarve starved = starve == null ? null : starve();
    Workload workload = querySet.select(WorkloadFiles.load(file));
    in = in.withWorkload(workload);
    if (!(WorkloadKind.of(in) instanceof SqlKind)) {
      throw new FusilladeException(file + ": fusillade ladder runs a workload's SQL queries");
    }
    Path ladder =
        outputs.output.resolve(
            "ladder-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    Files.createDirectories(ladder);
    OutputOptions runOutputs = outputs.into(ladder);
    RunInputs runs = in.withOutputs(runOutputs);
    // A plan as the first run gets it: its checks are said once, for every run.
    RunPlanner.Planned planned =
        RunPlanner.plan(runs, null, new RunPlan.Ladder(1, setTimeout()), out);
    if (starved != null && SqlKind.external(in)) {
      throw new FusilladeException(
          "--starve starves the embedded PostgreSQL the ladder starts: without --url");
    }
    CpuStarvation.Mechanism mechanism =
        starved == null ? null : RunPlanner.starveMechanism("--starve", starved);
    if (starved != null) {
      out.println(
          "Fusillade: every run's server starved of CPU: "
              + starved.describe()
              + " by "
              + mechanism.words);
      out.flush();
    }
    List<Ladder.Failure> failures = new ArrayList<>();
    ExitCode worst = ExitCode.OK;
    try (LocalPostgresCluster postgres = SqlKind.external(in) ? null : startServer()) {
      RunPlan.Telemetry telemetry = telemetry(planned.plan().telemetry(), postgres);
      RunSettings settings = planned.settings();
      RunPlan.Sql servers = planned.plan().sql();
      if (postgres != null) {
        settings =
            settings
                .withUrls(List.of(postgres.jdbcUrl()))
                .withUser(postgres.user())
                .withSetup("true"); // the first run fills the tables; the others find them
        servers =
            new RunPlan.Sql(
                servers.failover(),
                servers.connectionTimeout(),
                0,
                postgres.replicaJdbcUrls(),
                List.of(),
                servers.requests(),
                servers.queries());
      } else {
        planned.kind().checkReachable(in, settings);
      }
      levels:
      for (int level : levels) {
        for (int repeat = 1; repeat <= repeats; repeat++) {
          CpuStarvation starvation =
              starved == null
                  ? null
                  : CpuStarvation.start(starved, mechanism, postgres.primary()::pids);
          ForkedRun.Outcome outcome;
          try {
            RunPlan plan =
                planned
                    .plan()
                    .withSettings(
                        settings.withUsers(level).withChecks(planned.plan().settings().checks()))
                    .withSql(servers)
                    .withTelemetry(telemetry)
                    .withLadder(
                        new RunPlan.Ladder(
                            repeat,
                            setTimeout(),
                            starvation == null ? null : starvation.describe()));
            outcome = ForkedRun.run(SqlLadderRun.class, plan, runOutputs, out, err);
          } finally {
            if (starvation != null) {
              starvation.close();
            }
          }
          settings = settings.withSetup(postgres != null ? "false" : settings.setup());
          Optional<String> failed = failure(outcome);
          if (failed.isPresent()) {
            failures.add(new Ladder.Failure(level, repeat, failed.get()));
            worst = worse(worst, outcome.code());
            err.println(
                "fusillade: level "
                    + level
                    + ", run "
                    + repeat
                    + ": "
                    + failed.get()
                    + (stopOnFailure || outcome.stoppedBy().isPresent()
                        ? ": the ladder stops here"
                        : ": kept, marked x; the ladder goes on"));
            err.flush();
            if (stopOnFailure || outcome.stoppedBy().isPresent()) {
              break levels;
            }
          }
        }
      }
    }
    List<RunData> runData = RunMetrics.load(List.of(ladder));
    failures.addAll(Ladder.erroredRuns(runData, failures));
    if (!failures.isEmpty() && worst == ExitCode.OK) {
      worst = ExitCode.CHECK_FAILED; // requests that failed, in a run that passed its checks
    }
    RunComparison comparison =
        baselineRuns == null
            ? null
            : RunComparison.of(
                baselineRuns, runData, Comparison.Settings.DEFAULTS, RunComparison.LEVEL);
    List<String> names = new ArrayList<>();
    workload.queries().forEach(q -> names.add(q.name()));
    names.add(SqlLadderRun.SET);
    out.print(Ladder.of(runData, names).withFailures(failures).render(comparison));
    out.flush();
    if (comparison != null && comparison.anyWorse() && worst == ExitCode.OK) {
      worst = ExitCode.CHECK_FAILED;
    }
    String what =
        failures.isEmpty()
            ? "the ladder ran " + levels.size() + " levels x " + repeats + " runs"
            : "the ladder ran; " + failures.size() + " of its runs failed (marked x)";
    if (comparison != null && comparison.anyWorse()) {
      what += "; a level got worse than the baseline";
    }
    return ExitLine.print(worst, what, Optional.of(ladder), out, err);
  }

  /** {@code --starve}, read. */
  private CpuStarve starve() {
    try {
      return CpuStarve.parse(starve);
    } catch (IllegalArgumentException e) {
      throw new FusilladeException("--starve: " + e.getMessage());
    }
  }

  /**
   * The runs' telemetry: with the embedded server, its processes' CPU ({@code process.postgres.*})
   * and its log counted ({@code server.postgres.log.warning|error}, unless the workload names its
   * own patterns for it); {@code logs: embedded} is that server's log file.
   */
  static RunPlan.Telemetry telemetry(RunPlan.Telemetry planned, LocalPostgresCluster postgres) {
    List<RunPlan.LogSource> logs = new ArrayList<>();
    boolean embeddedDeclared = false;
    for (RunPlan.LogSource source : planned.logs()) {
      if (source.file().toString().equals(io.fusillade.workload.LogMonitor.EMBEDDED)) {
        if (postgres == null) {
          throw new FusilladeException(
              "monitor "
                  + source.name()
                  + ": logs: embedded counts the embedded PostgreSQL's log, and a ladder with --url"
                  + " starts none: give the server's log file instead");
        }
        embeddedDeclared = true;
        source =
            new RunPlan.LogSource(source.name(), postgres.primary().logFile(), source.patterns());
      }
      logs.add(source);
    }
    if (postgres == null) {
      return planned.withLogs(logs);
    }
    if (!embeddedDeclared && logs.stream().noneMatch(l -> l.name().equals(EMBEDDED_LOG_NAME))) {
      logs.add(
          new RunPlan.LogSource(
              EMBEDDED_LOG_NAME, postgres.primary().logFile(), DEFAULT_LOG_PATTERNS));
    }
    List<String> processes = new ArrayList<>(planned.processes());
    if (!processes.contains("postgres")) {
      processes.add("postgres");
    }
    return planned.withLogs(logs).withProcesses(processes);
  }

  /** The name of the embedded server's log source. */
  static final String EMBEDDED_LOG_NAME = "postgres";

  /**
   * What the embedded server's log is counted for by default: its warnings (and the network
   * delivery warnings the seed counted, {@code could not send data to client}), and its errors.
   */
  static final java.util.Map<String, String> DEFAULT_LOG_PATTERNS = defaultLogPatterns();

  private static java.util.Map<String, String> defaultLogPatterns() {
    java.util.Map<String, String> patterns = new java.util.LinkedHashMap<>();
    patterns.put("warning", "WARNING|could not send");
    patterns.put("error", "ERROR|FATAL|PANIC");
    return java.util.Collections.unmodifiableMap(patterns);
  }

  private LocalPostgresCluster startServer() {
    LocalPostgres.Builder builder = LocalPostgres.builder();
    for (String setting : sql.serverSettings) {
      String[] pair = SqlTarget.serverSetting(setting);
      builder = builder.serverConfig(pair[0], pair[1]);
    }
    return LocalPostgresCluster.start(builder, sql.replicas != null ? sql.replicas : 0);
  }

  /** Why a run of the ladder failed, or empty when it did not. */
  private static Optional<String> failure(ForkedRun.Outcome outcome) {
    if (outcome.code() == ExitCode.OK) {
      return Optional.empty();
    }
    return Optional.of(ExitLine.describe(outcome));
  }

  /** The worse of two codes: a stop beats a failed run beats a failed check. */
  private static ExitCode worse(ExitCode a, ExitCode b) {
    List<ExitCode> order =
        List.of(
            ExitCode.OK,
            ExitCode.CHECK_FAILED,
            ExitCode.ABORTED,
            ExitCode.FAILED,
            ExitCode.TERMINATED,
            ExitCode.INTERRUPTED);
    return order.indexOf(b) > order.indexOf(a) ? b : a;
  }

  /** {@code --set-timeout}, checked, or null. */
  private java.time.Duration setTimeout() {
    if (setTimeout == null) {
      return null;
    }
    SqlRequestOptions.duration("--set-timeout", setTimeout);
    return io.fusillade.record.SettingValues.parseDuration(setTimeout);
  }
}
