package io.fusillade.plan;

import io.fusillade.limit.AdaptiveSettings;
import io.fusillade.limit.LimitSettings;
import io.fusillade.record.RunSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Everything one run is asked to do, resolved once: what {@code fusillade run}, {@code limit} and
 * {@code ladder} decide before they fork the JVM that runs Gatling, and what that JVM reads instead
 * of re-deciding it. The command line builds the plan from its options, the workload file and the
 * documented {@code -D} settings, and hands it over as one file ({@link RunPlanFile}: versioned
 * JSON, readable by its owner only, deleted by the reader); a plain {@code mvn gatling:test} gets
 * the plan its documented {@code -D} settings give ({@link PlanProperties}), so both kinds of run
 * read their settings through the same typed record: {@link #current()}.
 *
 * <p>Why one file and not system properties: a {@code -D} on a command line is readable by every
 * user of the machine ({@code ps}), and a JDBC URL or an InfluxDB URL may hold a password; and a
 * setting carried as text is parsed, defaulted and validated again on the other side, where a
 * mistake is found after the servers started.
 *
 * @param version the plan's format, {@value #VERSION}: a reader refuses another
 * @param settings the load, the connection and the checks ({@code run.json} records them)
 * @param scale the factor of the workload's {@code N * scale} integers (its tables' rows), or null
 *     for the file's own {@code scale}
 * @param share this injector's share of a test run by several
 * @param control what steers the run while it runs: abort rules, faults, the deadline
 * @param telemetry what is measured beside the requests
 * @param live where the run's metrics go while it runs
 * @param sql the embedded PostgreSQL and the SQL clients' settings
 * @param logs the embedded OpenSearch and the log runner's settings
 * @param limit the limit search's settings, or null when the run is not a search
 * @param adaptive the adaptive run's settings ({@code --mode adaptive}), or null when its rate is
 *     not steered
 * @param ladder the ladder run's settings, or null when the run is not one of a ladder
 * @param outputs where the record, the result and the progress go
 */
public record RunPlan(
    int version,
    RunSettings settings,
    Double scale,
    Share share,
    Control control,
    Telemetry telemetry,
    Live live,
    Sql sql,
    Logs logs,
    LimitSettings limit,
    AdaptiveSettings adaptive,
    Ladder ladder,
    Outputs outputs) {

  /** The format this build writes and reads. */
  public static final int VERSION = 1;

  /** A run with every setting at its default: what a simulation without {@code -D} runs with. */
  public static final RunPlan DEFAULTS =
      new RunPlan(
          VERSION,
          RunSettings.NONE,
          null,
          Share.ALONE,
          Control.NONE,
          Telemetry.DEFAULTS,
          Live.NONE,
          Sql.DEFAULTS,
          Logs.DEFAULTS,
          null,
          null,
          null,
          Outputs.DEFAULTS);

  /** Requires every part but the search's and the ladder's. */
  public RunPlan {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(share, "share");
    Objects.requireNonNull(control, "control");
    Objects.requireNonNull(telemetry, "telemetry");
    Objects.requireNonNull(live, "live");
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(logs, "logs");
    Objects.requireNonNull(outputs, "outputs");
  }

  /**
   * The plan of the run in this JVM: the one the command line handed over ({@link #install}), else
   * the one this JVM's documented {@code -D} settings give (read at each call, so that a test may
   * change them between runs).
   */
  public static RunPlan current() {
    RunPlan plan = Installed.plan;
    return plan != null ? plan : PlanProperties.read(System.getProperties());
  }

  /**
   * Makes {@code plan} this JVM's for good: the forked JVM's entry point calls it with the plan the
   * command line wrote, before anything reads a setting.
   *
   * @throws IllegalStateException when another plan was installed already
   */
  public static void install(RunPlan plan) {
    synchronized (Installed.class) {
      if (Installed.plan != null && !Installed.plan.equals(plan)) {
        throw new IllegalStateException("a run plan is installed already");
      }
      Installed.plan = Objects.requireNonNull(plan, "plan");
    }
  }

  /** Whether the command line handed this JVM its plan: it then reads the run's result. */
  public static boolean installed() {
    return Installed.plan != null;
  }

  private static final class Installed {
    static volatile RunPlan plan;
  }

  public RunPlan withSettings(RunSettings value) {
    return new RunPlan(
        version, value, scale, share, control, telemetry, live, sql, logs, limit, adaptive, ladder,
        outputs);
  }

  public RunPlan withScale(Double value) {
    return new RunPlan(
        version, settings, value, share, control, telemetry, live, sql, logs, limit, adaptive,
        ladder, outputs);
  }

  public RunPlan withShare(Share value) {
    return new RunPlan(
        version, settings, scale, value, control, telemetry, live, sql, logs, limit, adaptive,
        ladder, outputs);
  }

  public RunPlan withControl(Control value) {
    return new RunPlan(
        version, settings, scale, share, value, telemetry, live, sql, logs, limit, adaptive, ladder,
        outputs);
  }

  public RunPlan withTelemetry(Telemetry value) {
    return new RunPlan(
        version, settings, scale, share, control, value, live, sql, logs, limit, adaptive, ladder,
        outputs);
  }

  public RunPlan withLive(Live value) {
    return new RunPlan(
        version, settings, scale, share, control, telemetry, value, sql, logs, limit, adaptive,
        ladder, outputs);
  }

  public RunPlan withSql(Sql value) {
    return new RunPlan(
        version, settings, scale, share, control, telemetry, live, value, logs, limit, adaptive,
        ladder, outputs);
  }

  public RunPlan withLogs(Logs value) {
    return new RunPlan(
        version, settings, scale, share, control, telemetry, live, sql, value, limit, adaptive,
        ladder, outputs);
  }

  public RunPlan withLimit(LimitSettings value) {
    return new RunPlan(
        version, settings, scale, share, control, telemetry, live, sql, logs, value, adaptive,
        ladder, outputs);
  }

  public RunPlan withAdaptive(AdaptiveSettings value) {
    return new RunPlan(
        version, settings, scale, share, control, telemetry, live, sql, logs, limit, value, ladder,
        outputs);
  }

  public RunPlan withLadder(Ladder value) {
    return new RunPlan(
        version, settings, scale, share, control, telemetry, live, sql, logs, limit, adaptive,
        value, outputs);
  }

  public RunPlan withOutputs(Outputs value) {
    return new RunPlan(
        version, settings, scale, share, control, telemetry, live, sql, logs, limit, adaptive,
        ladder, value);
  }

  /**
   * One injector's share of a test that several run together: see {@code InjectorShare}.
   *
   * @param injectors the injectors of the test, 1 or more
   * @param index this one's, from 0
   * @param startAt the common start, or null: at once
   */
  public record Share(int injectors, int index, Instant startAt) {
    public static final Share ALONE = new Share(1, 0, null);
  }

  /**
   * What steers the run while it runs.
   *
   * @param abortRules rules that stop the run when they hold ({@code errors > 5% over 10s})
   * @param faults faults scheduled during the run ({@code at 30s kill broker 2})
   * @param deadline how long the run may last from its start before it is stopped as on SIGTERM,
   *     whatever it waits for; null for no deadline (a simulation of a user's own)
   */
  public record Control(List<String> abortRules, List<String> faults, Duration deadline) {
    public static final Control NONE = new Control(List.of(), List.of(), null);

    /** Copies the lists. */
    public Control {
      abortRules = List.copyOf(abortRules);
      faults = List.copyOf(faults);
    }

    public Control withAbortRules(List<String> value) {
      return new Control(value, faults, deadline);
    }

    public Control withFaults(List<String> value) {
      return new Control(abortRules, value, deadline);
    }

    public Control withDeadline(Duration value) {
      return new Control(abortRules, faults, value);
    }
  }

  /**
   * What is measured beside the requests.
   *
   * @param monitors servers whose Prometheus endpoints are scraped, one {@code name=url} each (see
   *     {@code ServerTarget}); a URL may hold a password
   * @param processes command names of processes whose CPU and memory are recorded
   * @param lagThreshold the injector lag p99 above which the injector counts as saturated
   * @param stealThreshold the average CPU steal, in percent, above which the run is flagged
   * @param jfr whether the load generator records a Java Flight Recorder profile
   * @param logs servers' log files whose lines are counted per pattern (a {@code logs:} monitor
   *     source, its file resolved)
   */
  public record Telemetry(
      List<String> monitors,
      List<String> processes,
      Duration lagThreshold,
      double stealThreshold,
      boolean jfr,
      List<LogSource> logs) {
    /** 20 ms of lag, 5% of steal. */
    public static final Telemetry DEFAULTS =
        new Telemetry(List.of(), List.of(), Duration.ofMillis(20), 5, false, List.of());

    /** Copies the lists. */
    public Telemetry {
      monitors = List.copyOf(monitors);
      processes = List.copyOf(processes);
      logs = logs == null ? List.of() : List.copyOf(logs);
      Objects.requireNonNull(lagThreshold, "lagThreshold");
    }

    /** Telemetry without log sources. */
    public Telemetry(
        List<String> monitors,
        List<String> processes,
        Duration lagThreshold,
        double stealThreshold,
        boolean jfr) {
      this(monitors, processes, lagThreshold, stealThreshold, jfr, List.of());
    }

    public Telemetry withMonitors(List<String> value) {
      return new Telemetry(value, processes, lagThreshold, stealThreshold, jfr, logs);
    }

    public Telemetry withProcesses(List<String> value) {
      return new Telemetry(monitors, value, lagThreshold, stealThreshold, jfr, logs);
    }

    public Telemetry withJfr(boolean value) {
      return new Telemetry(monitors, processes, lagThreshold, stealThreshold, value, logs);
    }

    public Telemetry withLogs(List<LogSource> value) {
      return new Telemetry(monitors, processes, lagThreshold, stealThreshold, jfr, value);
    }
  }

  /**
   * A server's log file whose lines the run counts per named pattern ({@code LogWatch}).
   *
   * @param name the source's name: gauges {@code server.<name>.log.<pattern>}
   * @param file the log file
   * @param patterns the regular expressions by pattern name, in order
   */
  public record LogSource(String name, Path file, java.util.Map<String, String> patterns) {
    /** Keeps the patterns' order. */
    public LogSource {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(file, "file");
      patterns = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(patterns));
    }
  }

  /**
   * Where the run's metrics go while it runs.
   *
   * @param metricsPort the port of the Prometheus endpoint (0: any free one), or null for none
   * @param metricsHost the address it listens on, or null for every one
   * @param metricsHold how long the endpoint stays up after the run, or null for none
   * @param influxUrl the InfluxDB write URL each second is pushed to, or null; may hold a password
   */
  public record Live(
      Integer metricsPort, String metricsHost, Duration metricsHold, String influxUrl) {
    public static final Live NONE = new Live(null, null, null, null);
  }

  /**
   * The embedded PostgreSQL and the SQL clients' settings beside {@link RunSettings}'.
   *
   * @param failover the longest wait between two probes of a node that is down, or null for the
   *     client's default
   * @param connectionTimeout how long a connection may take to open
   * @param replicas streaming replicas the embedded PostgreSQL starts with
   * @param replicaUrls replicas of the nodes given by URL, which take reads only
   * @param serverSettings {@code postgresql.conf} settings of the embedded server, {@code
   *     name=value}
   * @param requests how each request is bounded, tried and balanced by zone
   * @param queries the workload's queries the run sends, by tag or name ({@code --queries}); empty
   *     for all
   */
  public record Sql(
      Duration failover,
      Duration connectionTimeout,
      int replicas,
      List<String> replicaUrls,
      List<String> serverSettings,
      Requests requests,
      List<String> queries) {
    /** 10 s to connect, no replica. */
    public static final Sql DEFAULTS =
        new Sql(null, Duration.ofSeconds(10), 0, List.of(), List.of());

    /** Copies the lists. */
    public Sql {
      replicaUrls = List.copyOf(replicaUrls);
      serverSettings = List.copyOf(serverSettings);
      Objects.requireNonNull(connectionTimeout, "connectionTimeout");
      requests = requests == null ? Requests.DEFAULTS : requests;
      queries = queries == null ? List.of() : List.copyOf(queries);
    }

    /** Every query. */
    public Sql(
        Duration failover,
        Duration connectionTimeout,
        int replicas,
        List<String> replicaUrls,
        List<String> serverSettings,
        Requests requests) {
      this(failover, connectionTimeout, replicas, replicaUrls, serverSettings, requests, List.of());
    }

    /** With the default {@link Requests}. */
    public Sql(
        Duration failover,
        Duration connectionTimeout,
        int replicas,
        List<String> replicaUrls,
        List<String> serverSettings) {
      this(failover, connectionTimeout, replicas, replicaUrls, serverSettings, Requests.DEFAULTS);
    }

    /** The same settings with {@code value}'s requests. */
    public Sql withRequests(Requests value) {
      return new Sql(
          failover, connectionTimeout, replicas, replicaUrls, serverSettings, value, queries);
    }

    /** The same settings sending {@code value}'s queries only ({@code --queries}). */
    public Sql withQueries(List<String> value) {
      return new Sql(
          failover, connectionTimeout, replicas, replicaUrls, serverSettings, requests, value);
    }
  }

  /**
   * How SQL requests are bounded, tried and balanced by zone ({@code --request-timeout}, {@code
   * --max-tries}, {@code --latency-limit}, {@code --zone}, {@code --node-zones}); a query's own
   * {@code timeout:} and {@code max_tries:} in the workload win.
   *
   * @param timeout how long a query may run before it is cancelled on the server, or null for the
   *     runner's default (60 s; a ladder's 30 min)
   * @param maxTries the most tries of a query that fails with a serialization failure or a
   *     deadlock, at least 1
   * @param latencyLimit as pgbench's {@code --latency-limit}: slower queries are counted late and
   *     no retry starts after it, or null
   * @param zone this injector's zone for zone balancing, or null for the environment's
   * @param nodeZones each node's zone in order (the given nodes then their replicas), or empty for
   *     the workload's
   */
  public record Requests(
      Duration timeout, int maxTries, Duration latencyLimit, String zone, List<String> nodeZones) {
    /** The runner's timeout, one try, no latency limit, no zone. */
    public static final Requests DEFAULTS = new Requests(null, 1, null, null, List.of());

    /** Copies the list; refuses fewer than one try. */
    public Requests {
      nodeZones = nodeZones == null ? List.of() : List.copyOf(nodeZones);
      if (maxTries < 1) {
        throw new IllegalArgumentException("maxTries must be at least 1, got " + maxTries);
      }
    }
  }

  /**
   * The embedded log store and the log runner's settings beside {@link RunSettings}'.
   *
   * @param nodes the embedded OpenSearch's nodes, or an embedded seq-db's stores
   * @param files NDJSON files replayed instead of generated documents (a file, directory or glob),
   *     or null
   * @param target the kind of store the section is run on ({@code --target}: {@code opensearch},
   *     {@code elasticsearch}, {@code seq-db}), or null for the section's own
   * @param seqdbBinary the binary an embedded seq-db starts from ({@code --seqdb-binary}, or the
   *     one the command line found), or null to look for one
   * @param serversApart whether each embedded node runs in a process of its own, so that its CPU
   *     and memory are measured apart from the injector's ({@code fusillade study})
   */
  public record Logs(
      int nodes, String files, String target, String seqdbBinary, boolean serversApart) {
    public static final Logs DEFAULTS = new Logs(1, null);

    /** On the section's own store, its binary looked for, its nodes where they run best. */
    public Logs(int nodes, String files) {
      this(nodes, files, null, null, false);
    }

    /** The same settings with each embedded node in a process of its own. */
    public Logs apart() {
      return new Logs(nodes, files, target, seqdbBinary, true);
    }
  }

  /**
   * A run of a ladder: one repeat of one level.
   *
   * @param repeat which repeat of its level, from 1
   * @param timeout how long one session's pass over the query set may take ({@code --set-timeout}),
   *     or null for no limit
   * @param starved the CPU starvation the ladder put its embedded server under for this run, as
   *     {@code CpuStarve} describes it (recorded in {@code run.json} and drawn as a fault band), or
   *     null for none
   */
  public record Ladder(int repeat, Duration timeout, String starved) {
    /** A run of a ladder whose server is not starved. */
    public Ladder(int repeat, Duration timeout) {
      this(repeat, timeout, null);
    }
  }

  /**
   * Where the run's outputs go.
   *
   * @param runsDirectory the directory under which the run record is written
   * @param resultFile where the run's result is written for the command line, or null (a {@code mvn
   *     gatling:test} run: its exit code and console say it)
   * @param progressSeconds how often the run's progress is printed, or null for Gatling's own
   *     console output
   * @param simulationName the name the record takes, or null for the simulation class's
   * @param failBuild whether a failed check or run ends the JVM with a non-zero code, so that
   *     {@code mvn gatling:test} fails the build (a run of the command line: its result says it)
   */
  public record Outputs(
      Path runsDirectory,
      Path resultFile,
      Integer progressSeconds,
      String simulationName,
      boolean failBuild) {
    /** The record under {@code target/fusillade}, no result file, Gatling's console. */
    public static final Outputs DEFAULTS =
        new Outputs(Path.of("target/fusillade"), null, null, null, true);

    /** Requires the runs directory. */
    public Outputs {
      Objects.requireNonNull(runsDirectory, "runsDirectory");
    }

    public Outputs withResultFile(Path value) {
      return new Outputs(runsDirectory, value, progressSeconds, simulationName, failBuild);
    }
  }
}
