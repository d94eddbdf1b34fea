package io.fusillade.plan;

import io.fusillade.FusilladeException;
import io.fusillade.limit.LimitSettings;
import io.fusillade.record.RunSettings;
import io.fusillade.record.SettingValues;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * The documented {@code -D} settings of a run ({@code mvn gatling:test -Dfusillade.rate=200}, or
 * {@code FUSILLADE_JAVA_OPTS} of the command line), read into a {@link RunPlan}: the one place that
 * names them. The command line starts from this plan and lays its options over it; a simulation run
 * by Maven runs with it as it is.
 *
 * <p>A value of the wrong kind is a {@link FusilladeException} naming the property.
 */
public final class PlanProperties {
  private PlanProperties() {}

  /** Where run records go (default {@code target/fusillade}). */
  public static final String RUNS_DIRECTORY = "fusillade.runs.dir";

  /** The injector lag p99, in milliseconds, above which the injector counts as saturated. */
  public static final String LAG_THRESHOLD = "fusillade.injector.lagThreshold";

  /** Command names of processes whose CPU and memory are recorded, comma-separated. */
  public static final String PROCESSES = "fusillade.system.processes";

  /** The average CPU steal, %, above which the run is flagged. */
  public static final String STEAL_THRESHOLD = "fusillade.system.stealThreshold";

  /** Servers to scrape, one {@code name=url} a line. */
  public static final String MONITOR = "fusillade.monitor";

  /**
   * The environment variable of more servers to scrape, one {@code name=url} a line: for a URL with
   * a password, which a {@code -D} would show to every user of the machine.
   */
  public static final String MONITOR_ENVIRONMENT = "FUSILLADE_MONITOR";

  public static final String METRICS_PORT = "fusillade.metrics.port";
  public static final String METRICS_HOST = "fusillade.metrics.host";
  public static final String METRICS_HOLD = "fusillade.metrics.hold";
  public static final String INFLUX_URL = "fusillade.influx.url";

  /** Abort rules, one a line. */
  public static final String ABORT = "fusillade.abort";

  /** Scheduled faults, one a line. */
  public static final String FAULTS = "fusillade.faults";

  /** {@code false} keeps failed checks from failing the build. */
  public static final String FAIL_BUILD = "fusillade.checks.failBuild";

  /** {@code true} records a Java Flight Recorder profile of the load generator. */
  public static final String PROFILE = "fusillade.profile";

  /** Seconds between two lines of Fusillade's own progress (instead of Gatling's console). */
  public static final String PROGRESS = "fusillade.progress";

  /** The name the run record takes instead of the simulation class's. */
  public static final String SIMULATION_NAME = "fusillade.simulation";

  public static final String INJECTORS = "fusillade.injectors";
  public static final String INJECTOR_INDEX = "fusillade.injectorIndex";
  public static final String START_AT = "fusillade.startAt";

  public static final String FAILOVER = "fusillade.failover";
  public static final String CONNECTION_TIMEOUT = "fusillade.connectionTimeout";
  public static final String POSTGRES_SETTINGS = "fusillade.postgres.settings";
  public static final String POSTGRES_REPLICAS = "fusillade.postgres.replicas";
  public static final String POSTGRES_REPLICA_URLS = "fusillade.replicaUrls";
  public static final String OPENSEARCH_NODES = "fusillade.opensearch.nodes";
  public static final String LOGS_FILES = "fusillade.logs.files";

  /** The kind of log store a logs section is run on ({@code --target}). */
  public static final String LOGS_TARGET = "fusillade.logs.target";

  /** {@code true}: each embedded log-store node in a process of its own. */
  public static final String LOGS_SERVERS_APART = "fusillade.logs.serversApart";

  /** The binary of an embedded seq-db ({@code --seqdb-binary}). */
  public static final String SEQDB_BINARY = "fusillade.seqdb.binary";

  public static final String LADDER_REPEAT = "fusillade.ladder.repeat";

  /** How long one ladder session's query set may run ({@code --set-timeout}). */
  public static final String LADDER_SET_TIMEOUT = "fusillade.ladder.setTimeout";

  /** How long an SQL query may run before it is cancelled ({@code --request-timeout}). */
  public static final String REQUEST_TIMEOUT = "fusillade.requestTimeout";

  /** The most tries of a serialization failure or deadlock ({@code --max-tries}). */
  public static final String MAX_TRIES = "fusillade.maxTries";

  /** pgbench's latency limit ({@code --latency-limit}). */
  public static final String LATENCY_LIMIT = "fusillade.latencyLimit";

  /** This injector's zone for zone balancing ({@code --zone}). */
  public static final String ZONE = "fusillade.zone";

  /** The workload's queries a run sends, tags or names, comma-separated ({@code --queries}). */
  public static final String QUERIES = "fusillade.queries";

  /** Each node's zone, comma-separated ({@code --node-zones}). */
  public static final String NODE_ZONES = "fusillade.nodeZones";

  /**
   * How long a run may last from its start before it is stopped and fails: {@code 10m}. The command
   * line sets its own (the load, its drain and a margin); a simulation of a user's own has none
   * unless this says one.
   */
  public static final String DEADLINE = "fusillade.deadline";

  /** Overrides a workload's {@code scale}. */
  public static final String SCALE = "fusillade.scale";

  /** {@code true} makes a workload's runner search the limit instead of running its load. */
  public static final String LIMIT_SEARCH = LimitSettings.SEARCH_PROPERTY;

  /**
   * The plan these properties give, with {@link #MONITOR_ENVIRONMENT} from this process's
   * environment.
   */
  public static RunPlan read(Properties properties) {
    return read(properties, System.getenv(MONITOR_ENVIRONMENT));
  }

  /**
   * The plan these properties give.
   *
   * @param monitorEnvironment the value of {@link #MONITOR_ENVIRONMENT}, or null
   * @throws FusilladeException naming a property whose value is of the wrong kind
   */
  public static RunPlan read(Properties properties, String monitorEnvironment) {
    SettingValues values = SettingValues.of(properties::getProperty);
    RunPlan defaults = RunPlan.DEFAULTS;
    List<String> monitors = lines(values.string(MONITOR, null));
    if (monitorEnvironment != null) {
      monitors = concat(monitors, lines(monitorEnvironment));
    }
    Double lag = values.number(LAG_THRESHOLD, null);
    RunPlan.Telemetry telemetry =
        new RunPlan.Telemetry(
            monitors,
            list(values.string(PROCESSES, null), ","),
            lag == null
                ? defaults.telemetry().lagThreshold()
                : Duration.ofNanos(Math.round(lag * 1e6)),
            values.number(STEAL_THRESHOLD, defaults.telemetry().stealThreshold()),
            flag(values, PROFILE, false));
    Double hold = values.number(METRICS_HOLD, null);
    RunPlan.Live live =
        new RunPlan.Live(
            values.integer(METRICS_PORT, null),
            values.string(METRICS_HOST, null),
            hold == null ? null : Duration.ofMillis(Math.round(hold * 1000)),
            values.string(INFLUX_URL, null));
    String startAt = values.string(START_AT, null);
    RunPlan.Share share =
        new RunPlan.Share(
            values.integer(INJECTORS, 1),
            values.integer(INJECTOR_INDEX, 0),
            startAt == null || startAt.isBlank() ? null : instant(startAt));
    RunPlan.Control control =
        new RunPlan.Control(
            lines(values.string(ABORT, null)),
            lines(values.string(FAULTS, null)),
            values.duration(DEADLINE, null));
    RunPlan.Sql sql =
        new RunPlan.Sql(
            values.duration(FAILOVER, null),
            values.duration(CONNECTION_TIMEOUT, defaults.sql().connectionTimeout()),
            values.integer(POSTGRES_REPLICAS, 0),
            list(values.string(POSTGRES_REPLICA_URLS, null), ","),
            lines(values.string(POSTGRES_SETTINGS, null)),
            new RunPlan.Requests(
                values.duration(REQUEST_TIMEOUT, null),
                maxTries(values),
                values.duration(LATENCY_LIMIT, null),
                values.string(ZONE, null),
                list(values.string(NODE_ZONES, null), ",")),
            list(values.string(QUERIES, null), ","));
    RunPlan.Logs logs =
        new RunPlan.Logs(
            values.integer(OPENSEARCH_NODES, 1),
            values.string(LOGS_FILES, null),
            values.string(LOGS_TARGET, null),
            values.string(SEQDB_BINARY, null),
            flag(values, LOGS_SERVERS_APART, false));
    String runs = values.string(RUNS_DIRECTORY, null);
    RunPlan.Outputs outputs =
        new RunPlan.Outputs(
            runs == null ? defaults.outputs().runsDirectory() : Path.of(runs),
            null,
            values.integer(PROGRESS, null),
            values.string(SIMULATION_NAME, null),
            flag(values, FAIL_BUILD, true));
    LimitSettings limit =
        flag(values, LIMIT_SEARCH, false)
            ? LimitSettings.fromProperties(values, LimitSettings.DEFAULTS)
            : null;
    Integer repeat = values.integer(LADDER_REPEAT, null);
    Duration setTimeout = values.duration(LADDER_SET_TIMEOUT, null);
    Double scale = values.number(SCALE, null);
    if (scale != null && !(scale > 0 && scale < Double.POSITIVE_INFINITY)) {
      throw new FusilladeException(
          "system property " + SCALE + "=" + scale + " is not a number above 0");
    }
    return new RunPlan(
        RunPlan.VERSION,
        RunSettings.from(values),
        scale,
        share,
        control,
        telemetry,
        live,
        sql,
        logs,
        limit,
        null,
        repeat == null && setTimeout == null
            ? null
            : new RunPlan.Ladder(repeat == null ? 1 : repeat, setTimeout),
        outputs);
  }

  private static int maxTries(SettingValues values) {
    int tries = values.integer(MAX_TRIES, 1);
    if (tries < 1) {
      throw new FusilladeException(
          "system property " + MAX_TRIES + " must be at least 1, got " + tries);
    }
    return tries;
  }

  private static boolean flag(SettingValues values, String name, boolean otherwise) {
    String text = values.string(name, null);
    return text == null || text.isBlank() ? otherwise : Boolean.parseBoolean(text.strip());
  }

  private static Instant instant(String text) {
    try {
      return Instant.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new FusilladeException(
          "system property "
              + START_AT
              + ": \""
              + text
              + "\" is not an instant such as 2026-11-25T20:30:00Z");
    }
  }

  /** The non-blank lines of a value, stripped. */
  static List<String> lines(String text) {
    return list(text, "\n");
  }

  private static List<String> list(String text, String separator) {
    if (text == null) {
      return List.of();
    }
    return Arrays.stream(text.split(separator))
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .toList();
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }
}
