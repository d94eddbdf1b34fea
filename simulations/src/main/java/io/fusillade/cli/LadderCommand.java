package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.local.LocalPostgres;
import io.fusillade.record.RunSettings.Mode;
import io.fusillade.reports.runs.Ladder;
import io.fusillade.reports.runs.RunComparison;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.RunMetrics;
import io.fusillade.reports.stats.Comparison;
import io.fusillade.scenarios.sql.SqlLadderRun;
import io.fusillade.scenarios.sql.SqlTarget;
import io.fusillade.workload.Workload;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fusillade ladder WORKLOAD --levels 1,2,4 --repeats 3}: the analytical team's concurrency
 * ladder. At each level N, N sessions each run the workload's whole query set once ({@link
 * SqlLadderRun}); each level is repeated; every run is a record of its own under one directory, and
 * the table of medians per query and level follows (with {@code --baseline}, the % change per
 * level). Without {@code --url}, one embedded PostgreSQL serves every run, filled once.
 */
@Command(
    name = "ladder",
    mixinStandardHelpOptions = true,
    description = {
      "Runs a query set at rising concurrency, compared level by level.",
      "At each of --levels N, N sessions each run the whole query set once (each query timed,",
      "and the set as 'query set'); each level runs --repeats times, each run a record of its",
      "own under OUTPUT/ladder-TIME. The table shows the median over repeats of each query's",
      "median time per level, and the sets completed per second. With --baseline (an earlier",
      "ladder's directory), each cell adds its %% change with compare's verdict, and a last",
      "column the median %% over levels: exit code 3 when one got worse. The connection",
      "options of fusillade run apply (--url, --user, --pool, --engine, --seed, --setup...)."
    })
final class LadderCommand extends RunCommand {
  @Option(
      names = "--levels",
      split = ",",
      paramLabel = "N",
      description = "Sessions at each level, in order (default 1,2,4,8,16).")
  List<Integer> levels = new ArrayList<>(List.of(1, 2, 4, 8, 16));

  @Option(names = "--repeats", description = "Runs per level (default 3).")
  int repeats = 3;

  @Option(
      names = "--baseline",
      paramLabel = "DIR",
      description = "An earlier ladder's directory (its runs), to compare with level by level.")
  Path baseline;

  private int repeat;

  private static final List<String> LOAD_OPTIONS =
      List.of("--mode", "--rate", "--duration", "--peak", "--rise", "--hold", "--fall", "--users");

  @Override
  public Integer call() throws Exception {
    refuseBucket();
    for (String option : LOAD_OPTIONS) {
      if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
        throw new FusilladeException(
            option + " does not apply to fusillade ladder: --levels sets the sessions");
      }
    }
    if (levels.isEmpty() || levels.stream().anyMatch(l -> l == null || l < 1)) {
      throw new FusilladeException("--levels must be whole numbers >= 1, got " + levels);
    }
    if (repeats < 1) {
      throw new FusilladeException("--repeats must be >= 1, got " + repeats);
    }
    List<RunData> baselineRuns = null;
    if (baseline != null) {
      baselineRuns = RunMetrics.load(List.of(baseline));
    }
    Workload workload = querySet.select(WorkloadFiles.load(file));
    if (workload.queries().isEmpty()) {
      throw new FusilladeException(file + ": no queries to run");
    }
    Path root = output;
    Path ladder =
        root.resolve(
            "ladder-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    Files.createDirectories(ladder);
    boolean embedded =
        (database.urls == null || database.urls.isEmpty()) && workload.connection().isEmpty();
    LocalPostgres postgres = null;
    if (embedded) {
      LocalPostgres.Builder builder = LocalPostgres.builder();
      for (String setting : serverSettings) {
        String[] pair;
        try {
          pair = SqlTarget.serverSetting(setting);
        } catch (IllegalArgumentException e) {
          throw new FusilladeException("--server-setting: " + e.getMessage());
        }
        builder = builder.serverConfig(pair[0], pair[1]);
      }
      postgres = builder.start();
    } else if (!serverSettings.isEmpty()) {
      throw new FusilladeException(
          "--server-setting applies to the embedded PostgreSQL, not to a server given by --url or"
              + " the workload's connection: set it on that server");
    }
    List<String> settings = serverSettings;
    serverSettings = new ArrayList<>(); // the runs get this ladder's server by its URL
    try {
      if (postgres != null) {
        database.urls = List.of(postgres.jdbcUrl());
        database.user = postgres.user();
        setup = "true"; // the first run fills the tables; the others find them
      }
      output = ladder;
      for (int level : levels) {
        for (repeat = 1; repeat <= repeats; repeat++) {
          users = level;
          int code = super.call();
          if (postgres != null) {
            setup = "false";
          }
          if (code != 0) {
            spec.commandLine()
                .getErr()
                .println(
                    "fusillade: the ladder stopped at "
                        + level
                        + " sessions, run "
                        + repeat
                        + ": exit code "
                        + code);
            return code;
          }
        }
      }
    } finally {
      output = root;
      serverSettings = settings;
      if (postgres != null) {
        postgres.close();
      }
    }
    List<RunData> runs = RunMetrics.load(List.of(ladder));
    RunComparison comparison =
        baselineRuns == null
            ? null
            : RunComparison.of(
                baselineRuns, runs, Comparison.Settings.DEFAULTS, RunComparison.LEVEL);
    PrintWriter out = spec.commandLine().getOut();
    List<String> names = new ArrayList<>();
    workload.queries().forEach(q -> names.add(q.name()));
    names.add(SqlLadderRun.SET);
    out.print(Ladder.of(runs, names).render(comparison));
    out.println("Runs: " + ladder);
    out.flush();
    return comparison != null && comparison.anyWorse() ? FusilladeCommand.CHECK_FAILED : 0;
  }

  @Override
  Class<?> sqlSimulation(Mode mode) {
    return SqlLadderRun.class;
  }

  @Override
  Map<String, String> extraProperties() {
    return Map.of(SqlLadderRun.REPEAT_PROPERTY, Integer.toString(repeat));
  }

  /** Only the checks asked for: no defaults for each run of the ladder. */
  @Override
  List<String> checks(Workload workload, DefaultChecks defaults) {
    return checks;
  }
}
