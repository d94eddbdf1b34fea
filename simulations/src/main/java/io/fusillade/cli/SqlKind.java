package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.record.RunSettings.Mode;
import io.fusillade.reports.checks.RunShape;
import io.fusillade.scenarios.LocalFaults;
import io.fusillade.scenarios.sql.SqlLadderRun;
import io.fusillade.scenarios.sql.SqlLimitRun;
import io.fusillade.scenarios.sql.SqlQueueRun;
import io.fusillade.scenarios.sql.SqlRateRun;
import io.fusillade.sql.SqlClientOptions;
import io.fusillade.workload.Workload;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A workload of SQL queries: in queue mode (each of N users runs its share of the seeded query
 * queue once) or rate mode (a constant arrival rate, a spike, stages), searched by {@code limit},
 * laddered by {@code ladder}; on the {@code --url} nodes, the workload's connection, or an embedded
 * PostgreSQL (with replicas).
 */
record SqlKind() implements WorkloadKind {
  @Override
  public String label() {
    return "SQL";
  }

  @Override
  public void refuseOthers(RunInputs in) {
    refuse(in.logs(), in, "logs workloads");
  }

  /** Whether the database is given ({@code --url} or the workload's connection). */
  static boolean external(RunInputs in) {
    return in.target().urlGiven() || in.workload().connection().isPresent();
  }

  @Override
  public RunSettings settings(RunInputs in) {
    Workload workload = in.workload();
    SqlOptions sql = in.sql();
    sql.checkTarget(external(in));
    RunSettings given = RunSettings.NONE;
    if (in.rate() != null) {
      given = given.withRate(in.rate().rate).withDuration(in.rate().duration());
    }
    if (in.sqlLoad() != null) {
      given = in.sqlLoad().over(given);
    }
    // The options over the file's load section (the runner merges them the same way).
    RunSettings settings = workload.load().under(given);
    Mode mode;
    if (in.command().equals("run")) {
      mode = settings.mode() != null ? settings.mode() : Mode.RATE;
      refuseWhatTheModeIgnores(in, mode);
    } else {
      mode = in.command().equals("ladder") ? Mode.QUEUE : Mode.RATE;
    }
    return settings
        .withMode(mode)
        .withWorkload(in.file())
        .withSeed(in.seed())
        .withPool(sql.pool)
        .withEngine(sql.engine)
        .withBalance(sql.balance)
        .withSetup(sql.setup)
        .withTeardown(sql.teardown)
        // Only --url: the forked run reads the workload's connection itself, so that a URL that
        // came from ${env:...} is resolved where it is used.
        .withUrls(in.target().urls)
        .withUser(in.target().user);
  }

  /** An option the chosen mode would ignore is a user error, not a silent no-op. */
  private static void refuseWhatTheModeIgnores(RunInputs in, Mode mode) {
    SqlLoadOptions load = in.sqlLoad();
    if (mode == Mode.QUEUE) {
      if (in.rate() != null) {
        in.rate()
            .refuse(
                "set"
                    + " an arrival rate, and queue mode has none: each of --users runs its share"
                    + " of the queue once, as fast as the database answers (use --mode rate)");
      }
      if (load != null
          && (load.peak != null || load.rise != null || load.hold != null || load.fall != null)) {
        throw new FusilladeException(
            "--peak, --rise, --hold and --fall shape a spike of the arrival rate, and queue mode"
                + " has none (use --mode rate)");
      }
    } else if (load != null && load.users != null) {
      throw new FusilladeException(
          "--users sets the users of queue mode; rate mode sends its arrivals at --rate whatever"
              + " the users (use --mode queue)");
    }
  }

  @Override
  public DefaultChecks defaults(RunInputs in, RunSettings settings) {
    return DefaultChecks.sql(settings);
  }

  @Override
  public RunShape shape(RunInputs in, RunSettings settings) {
    boolean target = settings.mode() == Mode.RATE || in.command().equals("limit");
    return new RunShape(target, false, List.of());
  }

  @Override
  public Map<String, Integer> faultNodes(RunInputs in) {
    if (external(in)) {
      return Map.of();
    }
    Integer replicas = in.sql().replicas;
    return Map.of(LocalFaults.POSTGRES, 1 + (replicas != null ? replicas : 0));
  }

  @Override
  public void checkReachable(RunInputs in, RunSettings settings) {
    Workload workload = in.workload();
    TargetOptions target = in.target();
    for (String url : target.sqlUrls(workload)) {
      DatabaseOptions.checkReachable(url, target.user(workload), target.password(workload));
    }
    for (String url : replicaUrls(in)) {
      DatabaseOptions.checkReachable(url, target.user(workload), target.password(workload));
    }
  }

  /**
   * The replicas of the SQL nodes: {@code --replica-url}'s; else, unless {@code --url} names other
   * nodes, the workload's (they are replicas of its own nodes).
   */
  private static List<String> replicaUrls(RunInputs in) {
    if (!in.sql().replicaUrls.isEmpty() || in.target().urlGiven()) {
      return in.sql().replicaUrls;
    }
    return in.workload().connection().map(c -> c.replicas()).orElse(List.of());
  }

  @Override
  public RunPlan plan(RunPlan plan, RunInputs in) {
    SqlOptions sql = in.sql();
    return plan.withSql(
        new RunPlan.Sql(
            sql.failover() != null ? sql.failover() : plan.sql().failover(),
            plan.sql().connectionTimeout(),
            sql.replicas != null ? sql.replicas : plan.sql().replicas(),
            sql.replicaUrls.isEmpty() ? plan.sql().replicaUrls() : sql.replicaUrls,
            sql.serverSettings.isEmpty() ? plan.sql().serverSettings() : sql.serverSettings,
            in.requests() != null
                ? in.requests().requests(plan.sql().requests())
                : plan.sql().requests(),
            in.queries() != null && !in.queries().items().isEmpty()
                ? in.queries().items()
                : plan.sql().queries()));
  }

  @Override
  public Class<?> runner(RunSettings settings, boolean limit) {
    if (limit) {
      return SqlLimitRun.class;
    }
    return switch (settings.mode()) {
      case QUEUE -> SqlQueueRun.class;
      case RATE -> SqlRateRun.class;
      default -> throw new IllegalStateException("an SQL run in mode " + settings.mode());
    };
  }

  /** A ladder's runs: each level's sessions run the query set once. */
  Class<?> ladderRunner() {
    return SqlLadderRun.class;
  }

  @Override
  public Duration loadLength(RunSettings settings, RunInputs in) {
    if (settings.mode() != Mode.RATE) {
      return null; // a queue ends when its users have sent their shares
    }
    if (!settings.stages().isEmpty()) {
      return settings.stages().stream()
          .map(RunSettings.Stage::duration)
          .reduce(Duration.ZERO, Duration::plus);
    }
    if (settings.steps() != null) {
      return settings.steps().each().multipliedBy(settings.steps().rates().size());
    }
    Duration length =
        settings.duration() != null ? settings.duration() : SqlRateRun.DEFAULT_DURATION;
    if (settings.spike() != null) {
      RunSettings.Spike spike = settings.spike();
      length = length.plus(spike.rise()).plus(spike.hold()).plus(spike.fall());
    }
    return length;
  }

  @Override
  public Duration drain(RunInputs in) {
    return SqlClientOptions.DEFAULT_REQUEST_TIMEOUT;
  }

  @Override
  public double peakRate(RunSettings settings, RunInputs in) {
    if (settings.mode() != Mode.RATE) {
      return 0;
    }
    double peak = settings.rate() != null ? settings.rate() : SqlRateRun.DEFAULT_RATE;
    if (settings.spike() != null) {
      peak = Math.max(peak, settings.spike().peak());
    }
    for (RunSettings.Stage stage : settings.stages()) {
      peak = Math.max(peak, Math.max(stage.from(), stage.to()));
    }
    if (settings.steps() != null) {
      for (double rate : settings.steps().rates()) {
        peak = Math.max(peak, rate);
      }
    }
    return peak / in.injectorShare().count();
  }
}
