package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.abort.AbortRule;
import io.fusillade.fault.Fault;
import io.fusillade.fault.FaultSchedule;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.GatlingLauncher;
import io.fusillade.gatling.InjectorShare;
import io.fusillade.gatling.metrics.InfluxPush;
import io.fusillade.gatling.metrics.LiveMetrics;
import io.fusillade.local.LocalServers;
import io.fusillade.logs.NdjsonFiles;
import io.fusillade.record.RunSettings;
import io.fusillade.record.RunSettings.Mode;
import io.fusillade.record.SettingValues;
import io.fusillade.scenarios.LocalFaults;
import io.fusillade.scenarios.logs.LogsPlan;
import io.fusillade.scenarios.logs.LogsRun;
import io.fusillade.scenarios.logs.LogsTarget;
import io.fusillade.scenarios.logs.LogsWorkloadMapping;
import io.fusillade.scenarios.sql.SqlQueueRun;
import io.fusillade.scenarios.sql.SqlRateRun;
import io.fusillade.scenarios.sql.SqlTarget;
import io.fusillade.scenarios.topic.TopicWorkloadSimulation;
import io.fusillade.sql.SqlEngine;
import io.fusillade.system.ServerScraper;
import io.fusillade.system.ServerTarget;
import io.fusillade.workload.LogIngest;
import io.fusillade.workload.LogsSection;
import io.fusillade.workload.Workload;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fusillade run WORKLOAD --mode queue|rate}: runs a workload's queries without code, as the
 * reference simulations do, with Gatling in a forked JVM. A workload with a {@code logs} section
 * (and no queries) runs {@link LogsRun} instead, with the options that apply to it: {@code --url},
 * {@code --rate}, {@code --duration}, {@code --seed} and {@code --output}.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Runs a workload: SQL queries, topics, or log ingest and searches.",
      "A workload's SQL queries run in queue mode (each of N users runs its share of the seeded,",
      "shuffled query queue once) or at a constant arrival rate (with an optional spike).",
      "Without --url and without a connection section, an embedded PostgreSQL is started, and",
      "the tables are created and filled first. The password comes from the environment variable "
          + DatabaseOptions.PASSWORD_VARIABLE
          + ".",
      "A workload with a logs section (and no queries) runs its log ingest and searches instead:",
      "--url (http base URLs; default: the section's, else an embedded OpenSearch), --rate and",
      "--duration (for a section with rate:), --seed and --output apply to it.",
      "A workload with topics produces and consumes them: --url (Kafka bootstrap servers;",
      "default: the section's, else an embedded Kafka), --seed and --output apply to it.",
      "The workload's load section (mode, users, rate, duration, spike, stages) gives what the",
      "options do not. Its checks: and --check are evaluated after the run: exit code 3 when one",
      "fails, 1 when the run crashed. Without either, default checks apply (errors < 1%%,",
      "injector not saturated...: the console names them); checks: [] opts out.",
      "An abort: list or --abort-when stops the run when a rule holds ('errors > 5%% over 10s'):",
      "the record says aborted with the rule, the reports are written, the exit code is 4.",
      "A faults: list or --fault schedules faults ('at 30s pause broker 2 for 10s',",
      "'at 20s run: COMMAND'): each is an event of the record and a band on the report's charts.",
      "Ctrl-C or SIGTERM stops the load, writes the reports and exits 130 or 143; a second",
      "Ctrl-C exits at once."
    })
class RunCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "WORKLOAD", description = "The workload YAML file.")
  Path file;

  @Option(
      names = "--mode",
      description =
          "queue or rate (default: the workload's load.mode; queue for config_name QUEUE;"
              + " else rate).")
  String mode;

  @Option(
      names = "--check",
      paramLabel = "CHECK",
      description =
          "A check the run must pass, beside the workload's checks: 'p99 < 50ms', 'errors < 1%%',"
              + " 'rate >= 99%% of target'... (repeatable). A failed check exits 3.")
  List<String> checks = new ArrayList<>();

  @Option(
      names = "--rate",
      description = "Arrivals per second in rate mode (default: load.rate, else 100).")
  Integer rate;

  @Option(
      names = "--duration",
      description = "How long rate mode runs: 60s, 5m... (default: load.duration, else 60s).")
  String duration;

  @Option(
      names = "--peak",
      description = "Rate mode spike: the peak rate after the constant phase.")
  Integer peak;

  @Option(names = "--rise", description = "Spike: time to rise to the peak (default 10s).")
  String rise;

  @Option(names = "--hold", description = "Spike: time at the peak (default 30s).")
  String hold;

  @Option(names = "--fall", description = "Spike: time to fall back (default 10s).")
  String fall;

  @Option(
      names = "--users",
      description = "Virtual users in queue mode (default: load.users, else 10).")
  Integer users;

  @Option(names = "--seed", description = "The seed (default: the workload's, or 1).")
  Long seed;

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
      names = "--replicas",
      paramLabel = "N",
      description =
          "Start the embedded PostgreSQL with N streaming replicas (hot standbys on ports of their"
              + " own): reads are balanced over the primary and the replicas, writes go to the"
              + " primary; faults name the replicas postgres 2, 3...")
  Integer replicas;

  @Option(
      names = "--nodes",
      paramLabel = "N",
      description =
          "Logs: start the embedded OpenSearch as a cluster of N nodes (1 to 5, default 1) in the"
              + " injector's JVM; with 3, the index's replica (replicas: 1) makes it green, and"
              + " faults may kill opensearch 1..N. With --target seq-db: an ingestor in front of N"
              + " stores (faults: seq-db 1 is the ingestor, 2..N+1 the stores).")
  Integer searchNodes;

  // ---- the log store of a logs section (issue 35: seq-db as a target)
  @Option(
      names = "--target",
      paramLabel = "STORE",
      description =
          "Logs: the kind of store, replacing the section's target: opensearch (the default),"
              + " elasticsearch or seq-db. Without --url or urls, the embedded one of that kind is"
              + " started (seq-db: from --seqdb-binary; faults name its processes seq-db 1..N).")
  String logsTarget;

  @Option(
      names = "--seqdb-binary",
      paramLabel = "PATH",
      description =
          "Logs: the seq-db binary of an embedded seq-db (default: $FUSILLADE_SEQDB, seq-db on the"
              + " PATH, or where ../shared/seq-db/build.sh puts it).")
  String seqdbBinary;

  /** The binary the Gatling JVM starts seq-db from, found before the fork; null for none. */
  private Path seqDbFound;

  // ----

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

  /** Where the run records go: {@code --output}'s directory, or a local one for a bucket. */
  Path output;

  /** The bucket of {@code --output s3://...}, or null. */
  S3Records.Location outputBucket;

  @Option(
      names = "--output",
      paramLabel = "DIR|s3://BUCKET/PREFIX",
      defaultValue = "fusillade-results",
      description =
          "Where the run record and its report go (default: ${DEFAULT-VALUE}); s3://BUCKET/PREFIX"
              + " uploads them there when the run ends (endpoint: FUSILLADE_S3_ENDPOINT for an"
              + " S3-compatible store; credentials: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY).")
  void output(String value) throws IOException {
    if (S3Records.Location.is(value)) {
      outputBucket = S3Records.Location.parse(value);
      output = Files.createTempDirectory("fusillade-s3-");
    } else {
      outputBucket = null;
      output = Path.of(value);
    }
  }

  @Option(
      names = "--gatling-report",
      description =
          "Also write Gatling's simulation.log and HTML report under OUTPUT/gatling (Fusillade's"
              + " report is always written; Gatling's costs CPU per request and a parse at the"
              + " end that grows with the run).")
  boolean gatlingReport;

  @Option(
      names = "--metrics-port",
      paramLabel = "PORT",
      description =
          "Serve live Prometheus metrics of the run on http://host:PORT/metrics while it runs"
              + " (0: any free port, printed at the start).")
  Integer metricsPort;

  @Option(
      names = "--metrics-hold",
      paramLabel = "DURATION",
      description =
          "With --metrics-port: keep the endpoint up this long after the run, so that a last"
              + " scrape sees its totals: 15s, 1m... (default 0s).")
  String metricsHold;

  @Option(
      names = "--influx-url",
      paramLabel = "URL",
      description =
          "Push each second of the run to InfluxDB (line protocol) at this write URL:"
              + " http://host:8086/write?db=NAME (1.x) or"
              + " http://host:8086/api/v2/write?org=O&bucket=B (2.x, 3.x; token in "
              + InfluxPush.TOKEN_VARIABLE
              + ").")
  String influxUrl;

  @Option(
      names = "--abort-when",
      paramLabel = "RULE",
      description =
          "Stop the run while it is under way when a rule holds over its window, beside the"
              + " workload's abort: list: 'errors > 5%% over 10s', 'p99 > 2s over 30s'"
              + " (repeatable). The run ends as aborted, its reports are written, and the"
              + " command exits 4.")
  List<String> abortWhen = new ArrayList<>();

  @Option(
      names = "--fault",
      paramLabel = "FAULT",
      description =
          "Schedule a fault during the run, beside the workload's faults: list: 'at 30s pause"
              + " broker 2 for 10s', 'at 60s kill postgres for 5s', 'at 90s restart broker 1' on"
              + " the embedded servers, 'at 20s run: COMMAND' for any other (repeatable). Each is"
              + " recorded, shaded on the report's charts and measured by 'recovery < 10s after"
              + " \"kill broker 1\"'.")
  List<String> faultOptions = new ArrayList<>();

  @Option(
      names = "--injectors",
      paramLabel = "N",
      description =
          "Run the test with N injectors (N processes or machines, each given its"
              + " --injector-index): this one sends 1/N of the rate and every N-th of the seeded"
              + " requests, so that the N together send exactly what one would; 'fusillade"
              + " report' of their records is the test's report. SQL and logs workloads.")
  Integer injectors;

  @Option(
      names = "--injector-index",
      paramLabel = "I",
      description = "This injector's index among --injectors, from 0.")
  Integer injectorIndex;

  @Option(
      names = "--start-at",
      paramLabel = "INSTANT",
      description =
          "Start the load at this moment (ISO-8601, e.g. 2026-11-25T20:30:00Z), so that several"
              + " injectors start together; the record keeps how late each began.")
  String startAt;

  @Option(
      names = "--failover",
      paramLabel = "DURATION",
      description =
          "SQL: the longest wait between two probes of a node that is down, before it takes"
              + " queries again: 500ms, 5s... (default 2s).")
  String failover;

  @Option(
      names = "--watch-process",
      paramLabel = "NAME",
      description =
          "Record the CPU and memory of the processes of this command name (and their children)"
              + " beside the machine's, e.g. postgres (repeatable).")
  List<String> watchProcesses = new ArrayList<>();

  @Option(
      names = "--monitor",
      paramLabel = "NAME=URL",
      description =
          "Record a server's metrics second by second beside the requests, from its Prometheus"
              + " endpoint (node_exporter, cAdvisor, postgres_exporter, the JMX exporter, or"
              + " 'fusillade agent'), beside the workload's monitor: list, e.g."
              + " db=http://db1:9100/metrics (repeatable). Checked by 'server cpu.steal < 5%%'.")
  List<String> monitor = new ArrayList<>();

  @Option(
      names = "--server-setting",
      paramLabel = "NAME=VALUE",
      description =
          "A postgresql.conf setting of the embedded PostgreSQL (without --url), e.g."
              + " max_parallel_workers_per_gather=0 (repeatable); run.json's sql.server names it.")
  List<String> serverSettings = new ArrayList<>();

  @Option(
      names = "--files",
      paramLabel = "GLOB",
      description =
          "Logs: replay NDJSON documents from disk instead of the generated ones: a file, a"
              + " directory or a glob such as 'data/*.ndjson.gz' (gzip read as such).")
  String files;

  @Option(
      names = "--profile",
      description =
          "Record a Java Flight Recorder profile of the load generator into the run record"
              + " (profile.jfr, linked from the report): where the injector's CPU goes.")
  boolean profile;

  /** The abort rules of the run: the workload's, then --abort-when's; set by {@link #call}. */
  List<String> abortRules = List.of();

  /** The scheduled faults of the run: the workload's, then --fault's; set by {@link #call}. */
  List<String> faults = List.of();

  /** The servers whose metrics the run records: the workload's, then --monitor's. */
  List<ServerTarget> monitored = List.of();

  @Mixin DatabaseOptions database = new DatabaseOptions();

  @Option(
      names = "--url",
      paramLabel = "URL",
      description = {
        DatabaseOptions.JDBC_URL,
        "Topics: a Kafka bootstrap server. Logs: a node's http(s) base URL."
      })
  void urls(List<String> urls) {
    database.urls = urls;
  }

  @Override
  public Integer call() throws Exception {
    givenMode(); // a wrong --mode fails first
    if (engine != null) {
      try {
        SqlEngine.of(engine);
      } catch (IllegalArgumentException e) {
        throw new FusilladeException("--engine: " + e.getMessage());
      }
    }
    checkNumbers();
    if (failover != null) {
      try {
        if (SettingValues.parseDuration(failover).isNegative()) {
          throw new IllegalArgumentException("negative");
        }
      } catch (IllegalArgumentException e) {
        throw new FusilladeException(
            "--failover: \"" + failover + "\" is not a duration (examples: 500ms, 2s, 1m)");
      }
    }
    for (String setting : serverSettings) {
      try {
        SqlTarget.serverSetting(setting);
      } catch (IllegalArgumentException e) {
        throw new FusilladeException("--server-setting: " + e.getMessage());
      }
    }
    if (balance != null) {
      try {
        SqlTarget.balance(balance);
      } catch (IllegalArgumentException e) {
        throw new FusilladeException("--balance: " + e.getMessage());
      }
    }
    Workload workload = WorkloadFiles.load(file);
    boolean external =
        (database.urls != null && !database.urls.isEmpty()) || workload.connection().isPresent();
    if (!serverSettings.isEmpty() && external) {
      throw new FusilladeException(
          "--server-setting applies to the embedded PostgreSQL, not to a server given by --url or"
              + " the workload's connection: set it on that server");
    }
    if (searchNodes != null && (searchNodes < 1 || searchNodes > 5)) {
      throw new FusilladeException("--nodes must be 1 to 5, got " + searchNodes);
    }
    if (searchNodes != null && workload.logs().isEmpty()) {
      throw new FusilladeException(
          "--nodes applies to workloads with a logs section (SQL: --replicas N)");
    }
    if (searchNodes != null
        && ((database.urls != null && !database.urls.isEmpty())
            || !workload.logs().get().urls().isEmpty())) {
      throw new FusilladeException(
          "--nodes starts the embedded OpenSearch; a cluster given by --url or the workload's urls"
              + " is yours");
    }
    if (replicas != null && (replicas < 0 || replicas > 8)) {
      throw new FusilladeException("--replicas must be 0 to 8, got " + replicas);
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
    if ((logsTarget != null || seqdbBinary != null) && workload.logs().isEmpty()) {
      throw new FusilladeException(
          (logsTarget != null ? "--target" : "--seqdb-binary")
              + " applies to workloads with a logs section");
    }
    if (logsTarget != null && io.fusillade.workload.LogsNames.target(logsTarget).isEmpty()) {
      throw new FusilladeException(
          "--target must be one of "
              + String.join(", ", io.fusillade.workload.LogsNames.TARGETS)
              + ", not \""
              + logsTarget
              + "\"");
    }
    RunChecks.validate(workload, checks);
    abortRules = abortRules(workload);
    faults = faults(workload);
    checkFaultTargets(workload);
    monitored = monitored(workload);
    int kinds =
        (workload.queries().isEmpty() ? 0 : 1)
            + (workload.logs().isPresent() ? 1 : 0)
            + (workload.topics().isEmpty() ? 0 : 1);
    if (kinds > 1) {
      throw new FusilladeException(
          file
              + ": has more than one of queries, a logs section and topics; fusillade run runs one"
              + " kind of workload: put them in separate files");
    }
    if (workload.logs().isPresent()) {
      return runLogs(workload, workload.logs().get());
    }
    if (!workload.topics().isEmpty()) {
      return runTopics(workload);
    }
    if (workload.queries().isEmpty()) {
      throw new FusilladeException(file + ": no queries to run");
    }
    if (files != null) {
      throw new FusilladeException("--files applies to workloads with a logs section");
    }
    List<String> urls = database.urls(workload);
    // Fail before forking, with a message naming the node, when one cannot be reached.
    for (String url : urls) {
      DatabaseOptions.checkReachable(url, database.user(workload), database.password(workload));
    }
    for (String url : replicaUrls(workload)) {
      DatabaseOptions.checkReachable(url, database.user(workload), database.password(workload));
    }

    RunSettings settings = sqlSettings(workload);
    checkInjectorShare(settings.mode(), urls);
    return launch(sqlSimulation(settings.mode()), settings);
  }

  /**
   * The share of a test run by several injectors, checked before anything starts: an index below
   * the count, a start that reads, one system under test that they share (not an embedded server
   * each), the rate mode.
   */
  void checkInjectorShare(Mode mode, List<String> urls) {
    int count = injectors != null ? injectors : 1;
    int index = injectorIndex != null ? injectorIndex : 0;
    new InjectorShare(count, index, startAt == null ? null : InjectorShare.instant(startAt));
    if (count > 1 && urls.isEmpty()) {
      throw new FusilladeException(
          "--injectors "
              + count
              + ": the injectors share one system under test: give its --url"
              + " (or the workload's connection), not an embedded server each");
    }
    if (count > 1 && mode != Mode.RATE && mode != Mode.QUEUE && mode != Mode.LOGS) {
      throw new FusilladeException(
          "--injectors applies to SQL and logs workloads (this run: "
              + mode.name().toLowerCase(java.util.Locale.ROOT)
              + ")");
    }
  }

  /** The simulation that runs an SQL workload in {@code mode}. */
  Class<?> sqlSimulation(Mode mode) {
    return mode == Mode.QUEUE ? SqlQueueRun.class : SqlRateRun.class;
  }

  /** System properties of the Gatling JVM beside the run's settings ({@code fusillade limit}'s). */
  Map<String, String> extraProperties() {
    return Map.of();
  }

  /** {@code --mode}, or null when not given. */
  private Mode givenMode() {
    return switch (mode == null ? "" : mode) {
      case "" -> null;
      case "queue" -> Mode.QUEUE;
      case "rate" -> Mode.RATE;
      default -> throw new FusilladeException("--mode must be queue or rate, not \"" + mode + "\"");
    };
  }

  /** The workload's {@code monitor} servers, then {@code --monitor}'s, each checked. */
  List<ServerTarget> monitored(Workload workload) {
    List<ServerTarget> targets = new ArrayList<>(workload.monitor());
    for (String given : monitor) {
      try {
        targets.add(ServerTarget.parse(given));
      } catch (IllegalArgumentException e) {
        throw new FusilladeException("--monitor: " + e.getMessage());
      }
    }
    java.util.Set<String> names = new java.util.HashSet<>();
    for (ServerTarget t : targets) {
      if (!names.add(t.name())) {
        throw new FusilladeException(
            "--monitor: a server named \"" + t.name() + "\" is already monitored");
      }
    }
    return List.copyOf(targets);
  }

  /** The workload's faults, then {@code --fault}'s, each checked. */
  List<String> faults(Workload workload) {
    List<String> all = new ArrayList<>();
    workload.faults().forEach(fault -> all.add(fault.text()));
    for (String fault : faultOptions) {
      try {
        all.add(Fault.parse(fault).text());
      } catch (IllegalArgumentException e) {
        throw new FusilladeException("--fault: " + e.getMessage());
      }
    }
    return List.copyOf(all);
  }

  /**
   * Fails before anything starts when a fault names a local server this run will not start: the
   * embedded PostgreSQL of an SQL workload without a server, the embedded Kafka's brokers (three
   * when a topic's replication is above 1) of a topic workload without bootstrap servers. The
   * Gatling JVM checks again against the servers it started.
   */
  void checkFaultTargets(Workload workload) {
    boolean urlGiven = database.urls != null && !database.urls.isEmpty();
    Map<String, Integer> nodes = new LinkedHashMap<>();
    if (workload.logs().isPresent()) {
      if (!urlGiven && workload.logs().get().urls().isEmpty()) {
        if (onTarget(workload.logs().get()).seqDb()) {
          // the single node, or the ingestor and its stores
          nodes.put(
              LocalFaults.SEQ_DB, searchNodes != null && searchNodes > 1 ? searchNodes + 1 : 1);
        } else {
          nodes.put(LocalFaults.OPENSEARCH, searchNodes != null ? searchNodes : 1);
        }
      }
    } else if (!workload.topics().isEmpty()) {
      if (!urlGiven && workload.kafka().map(k -> k.bootstrapServers()).isEmpty()) {
        int replication = workload.topics().stream().mapToInt(t -> t.replication()).max().orElse(1);
        nodes.put(LocalFaults.BROKER, replication > 1 ? 3 : 1);
      }
      for (var topic : workload.topics()) {
        if (topic.sinkTable() != null || topic.sinkTopic() != null) {
          nodes.put(LocalFaults.CONSUMER, topic.consumers());
        }
        if (topic.sinkTable() != null) {
          if (workload.connection().isEmpty()) {
            nodes.put(LocalFaults.POSTGRES, 1);
          }
        }
      }
    } else if (!urlGiven && workload.connection().isEmpty()) {
      nodes.put(LocalFaults.POSTGRES, 1 + (replicas != null ? replicas : 0));
    }
    try {
      FaultSchedule.validateNodes(faults.stream().map(Fault::parse).toList(), nodes);
    } catch (IllegalArgumentException e) {
      throw new FusilladeException(e.getMessage());
    }
    for (String text : faults) {
      Fault fault = Fault.parse(text);
      if (fault.action() == Fault.Action.DELAY && fault.target().equals(LocalFaults.CONSUMER)) {
        throw new FusilladeException(
            "fault \""
                + text
                + "\": the answers of the embedded servers (postgres, broker, opensearch, seq-db) can be"
                + " delayed, not the topic's consumers");
      }
    }
  }

  /** The workload's abort rules, then {@code --abort-when}'s, each checked. */
  List<String> abortRules(Workload workload) {
    List<String> rules = new ArrayList<>();
    workload.abort().forEach(rule -> rules.add(rule.text()));
    for (String rule : abortWhen) {
      try {
        rules.add(AbortRule.parse(rule).text());
      } catch (IllegalArgumentException e) {
        throw new FusilladeException("--abort-when: " + e.getMessage());
      }
    }
    return List.copyOf(rules);
  }

  /**
   * What an SQL run of {@code workload} hands its Gatling JVM: the options over the file's load
   * section, with the checks it declares (the defaults said on the console when it has none).
   */
  RunSettings sqlSettings(Workload workload) {
    // The options over the file's load section (the runner merges them the same way).
    RunSettings settings =
        workload
            .load()
            .under(
                RunSettings.NONE
                    .withMode(givenMode())
                    .withRate(rate)
                    .withDuration(duration == null ? null : SettingValues.parseDuration(duration))
                    .withSpike(
                        peak == null || peak <= 0
                            ? null
                            : new RunSettings.Spike(
                                peak, duration(rise), duration(hold), duration(fall)))
                    .withUsers(users));
    Mode chosen = settings.mode() != null ? settings.mode() : Mode.RATE;
    settings =
        settings
            .withMode(chosen)
            .withWorkload(file)
            .withSeed(seed)
            .withPool(pool)
            .withEngine(engine)
            .withBalance(balance)
            .withSetup(setup)
            .withTeardown(teardown)
            // Only --url: the forked run reads the workload's connection itself, so a URL that came
            // from ${env:...} (and may hold a password) never reaches its command line.
            .withUrls(database.urls)
            .withUser(database.user);
    return settings.withChecks(checks(workload, DefaultChecks.sql(settings)));
  }

  /**
   * The replicas of the SQL nodes: --replica-url's; else, unless --url names other nodes, the
   * workload's (they are replicas of its own nodes).
   */
  private List<String> replicaUrls(Workload workload) {
    if (!replicaUrls.isEmpty() || (database.urls != null && !database.urls.isEmpty())) {
      return replicaUrls;
    }
    return workload.connection().map(c -> c.replicas()).orElse(List.of());
  }

  /** Options of SQL workloads only: an error with a logs section rather than silently ignored. */
  private static final List<String> SQL_ONLY =
      List.of(
          "--replicas",
          "--replica-url",
          "--mode",
          "--peak",
          "--rise",
          "--hold",
          "--fall",
          "--users",
          "--pool",
          "--engine",
          "--balance",
          "--failover",
          "--setup",
          "--teardown",
          "--user");

  /** Options of several injectors: SQL and logs workloads split their load, topics not yet. */
  private static final List<String> SPLIT_ONLY =
      List.of("--injectors", "--injector-index", "--start-at");

  /** The section on the store {@code --target} names, else its own. */
  LogsSection onTarget(LogsSection logs) {
    return logsTarget == null
        ? logs
        : logs.withTarget(io.fusillade.workload.LogsNames.target(logsTarget).orElseThrow());
  }

  /**
   * Before the fork, what a section needs of its store: each search of the file's own in that
   * store's terms, and for an embedded seq-db its binary (one line on how to build it, when there
   * is none).
   */
  private void checkStore(Workload workload, LogsSection logs, List<String> urls) {
    if (logs.seqDb() && !workload.injected().isEmpty()) {
      // seq-db checks no field's type and ignores the action lines: neither bulk fails there
      throw new FusilladeException(
          file
              + ": injected bulks ("
              + workload.injected().get(0).kind()
              + ") fail on Elasticsearch's checks, which seq-db does not make: remove injected,"
              + " or run on opensearch");
    }
    for (var search : logs.searches()) {
      String missing = io.fusillade.workload.LogsNames.missingForm(search, logs.target());
      if (missing != null) {
        throw new FusilladeException(file + ": " + missing);
      }
    }
    if (logs.seqDb() && urls.isEmpty()) {
      try {
        seqDbFound = io.fusillade.local.SeqDbBinary.require(seqdbBinary);
      } catch (IllegalStateException e) {
        throw new FusilladeException(e.getMessage());
      }
    } else if (seqdbBinary != null) {
      throw new FusilladeException(
          "--seqdb-binary starts an embedded seq-db: this run's store is "
              + (logs.seqDb() ? "given by --url or the workload's urls" : logs.target()));
    }
  }

  private int runLogs(Workload workload, LogsSection section) throws Exception {
    LogsSection logs = onTarget(section);
    for (String option : SQL_ONLY) {
      if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
        throw new FusilladeException(
            option
                + " applies to SQL workloads; "
                + file
                + " has a logs section (options: --url, --rate, --duration, --seed, --output)");
      }
    }
    Duration runFor = duration(duration); // checked by checkNumbers
    LogIngest ingest = LogsPlan.ingest(logs, rate == null ? null : rate.doubleValue(), runFor);
    List<String> urls =
        database.urls != null && !database.urls.isEmpty() ? database.urls : logs.urls();
    checkStore(workload, logs, urls);
    checkInjectorShare(Mode.LOGS, urls);
    if (!urls.isEmpty()) {
      try {
        LogsWorkloadMapping.clientOptions(logs, urls);
      } catch (IllegalArgumentException e) {
        throw new FusilladeException("--url: " + e.getMessage());
      }
      // Fail before forking, with a message naming the node, when one cannot be reached.
      for (String url : urls) {
        LogStores.checkReachable(url);
      }
    }

    if (files != null && NdjsonFiles.files(files).isEmpty()) {
      // Before the fork: the files are read there, once (a bad line is named by its file and line).
      throw new FusilladeException(
          "--files: '"
              + files
              + "' names no file (a file, a directory or a glob such as"
              + " data/*.ndjson.gz)");
    }
    RunSettings settings =
        RunSettings.NONE
            .withMode(Mode.LOGS)
            .withWorkload(file)
            .withRate(rate)
            .withDuration(runFor)
            .withSeed(seed)
            .withUrls(database.urls)
            .withChecks(checks(workload, DefaultChecks.logs(ingest)));
    return launch(LogsRun.class, settings);
  }

  /** A workload's topics: on its {@code kafka} servers, {@code --url host:port}, or embedded. */
  private int runTopics(Workload workload) throws Exception {
    if (files != null) {
      throw new FusilladeException("--files applies to workloads with a logs section");
    }
    for (String option : SPLIT_ONLY) {
      if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
        // each injector would send the whole load, and their merged report count it N times
        throw new FusilladeException(
            option + " applies to SQL and logs workloads; " + file + " has topics");
      }
    }
    for (String option : SQL_ONLY) {
      if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
        throw new FusilladeException(
            option
                + " applies to SQL workloads; "
                + file
                + " has topics (options: --url for bootstrap servers, --seed, --output)");
      }
    }
    RunSettings settings =
        RunSettings.NONE
            .withMode(Mode.TOPICS)
            .withWorkload(file)
            .withSeed(seed)
            .withUrls(database.urls)
            .withChecks(checks(workload, DefaultChecks.topics(workload.topics())));
    return launch(TopicWorkloadSimulation.class, settings);
  }

  /**
   * The checks the run declares: {@code --check} and the workload's own ({@code checks:}, which the
   * runner adds); when there are none and the file has no {@code checks} key, the defaults for this
   * kind of run, said on the console before the run. {@code checks: []} opts out of the defaults.
   */
  List<String> checks(Workload workload, DefaultChecks defaults) {
    if (!checks.isEmpty() || workload.checksDeclared()) {
      return checks;
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(defaults.describe());
    out.flush();
    return defaults.checks();
  }

  /**
   * Runs the simulation in a forked JVM with the settings; reports go under {@code --output}. Then
   * evaluates the run's checks ({@link RunChecks}): a failed one exits {@link
   * FusilladeCommand#CHECK_FAILED}, as {@code fusillade report} does; a run that did not complete
   * exits 1. SIGINT and SIGTERM meanwhile stop the run, and a second one exits at once ({@link
   * ForkSignals}): the exit code is then the signal's (130, 143).
   */
  int launch(Class<?> simulation, RunSettings settings) throws Exception {
    if (outputBucket == null) {
      return launchHere(simulation, settings);
    }
    boolean uploaded = true;
    int code = 1;
    try {
      S3Records.check(outputBucket); // bad credentials found now, not after the run
      Set<Path> before = RunChecks.runs(output);
      try {
        code = launchHere(simulation, settings);
      } finally {
        // However the run ended (failed checks, an abort, a signal), its record goes to the bucket.
        Optional<Path> run = RunChecks.newRun(output, before);
        if (run.isPresent()) {
          uploaded = upload(run.get());
        }
      }
    } finally {
      if (uploaded) {
        S3Records.deleteQuietly(output); // the temporary directory, Gatling's files too
      }
    }
    // a failed upload is the news only when the run itself went well
    return uploaded || code != 0 ? code : FusilladeCommand.USER_ERROR;
  }

  /**
   * For the commands that read their runs back (a ladder, a limit search): their records stay in a
   * directory.
   */
  void refuseBucket() {
    if (outputBucket != null) {
      throw new FusilladeException(
          "--output "
              + outputBucket
              + ": fusillade "
              + spec.name()
              + " reads its runs back from a directory; upload them afterwards, or use fusillade"
              + " run");
    }
  }

  /** Uploads a run record to {@link #outputBucket}; false, with the local copy kept, on failure. */
  private boolean upload(Path run) {
    try {
      S3Records.Location where = S3Records.upload(run, outputBucket);
      spec.commandLine().getOut().println("Fusillade run record: " + where);
      spec.commandLine().getOut().flush();
      return true;
    } catch (RuntimeException e) { // the store's refusal, or a file that cannot be read
      spec.commandLine()
          .getErr()
          .println("fusillade: " + e.getMessage() + "; the run record stays at " + run);
      spec.commandLine().getErr().flush();
      return false;
    }
  }

  /** {@link #launch} into the local directory {@link #output}. */
  private int launchHere(Class<?> simulation, RunSettings settings) throws Exception {
    Files.createDirectories(output);
    Set<Path> before = RunChecks.runs(output);
    PrintWriter err = spec.commandLine().getErr();
    GatlingLauncher launcher =
        GatlingLauncher.of(simulation)
            .withProperties(forkProperties(settings))
            .withRunsDirectory(output)
            .withResults(output.resolve("gatling"));
    if (!gatlingReport) {
      // Fusillade's progress on the console instead of Gatling's (FusilladeRun.PROGRESS_PROPERTY)
      launcher =
          launcher.withoutReports().withProperties(Map.of(FusilladeRun.PROGRESS_PROPERTY, "5"));
    }
    int gatling;
    Optional<ForkSignals.Received> signal;
    try (ForkSignals signals = ForkSignals.install(err, () -> RunChecks.newRun(output, before))) {
      Process process = launcher.start();
      try {
        signals.watch(process);
        gatling = process.waitFor();
        signals.awaitExitAtOnce();
      } finally {
        if (process.isAlive()) {
          process.destroyForcibly();
        }
      }
      signal = signals.received();
    }
    // However the Gatling JVM ended, no embedded server of the run outlives it.
    LocalServers.stopOrphans(ORPHAN_GRACE);
    if (gatling == FusilladeRun.ABORTED_EXIT && signal.isEmpty()) {
      err.println(
          "fusillade: the run was stopped by its abort rule"
              + RunChecks.newRun(output, before).map(p -> ": run record " + p).orElse("")
              + "; exit code "
              + FusilladeCommand.ABORTED);
      err.flush();
      return FusilladeCommand.ABORTED;
    }
    int code = RunChecks.exitCode(output, before, exitCode(gatling), err);
    if (signal.isPresent()) {
      err.println(
          "fusillade: the run was stopped by "
              + signal.get().describe()
              + RunChecks.newRun(output, before).map(p -> ": run record " + p).orElse("")
              + "; exit code "
              + signal.get().exitCode());
      err.flush();
      return signal.get().exitCode();
    }
    return finished(RunChecks.newRun(output, before), code);
  }

  /**
   * The exit code of a run that ended by itself, from the checks' ({@code code}); {@code fusillade
   * limit} adds the search's verdict.
   *
   * @param run the run's record directory, when one was written
   */
  int finished(Optional<Path> run, int code) throws Exception {
    return code;
  }

  /**
   * Every system property the Gatling JVM gets: the {@code fusillade.*} settings of this JVM, then
   * the run's settings, the live metrics', {@code --failover}'s and {@code --watch-process}'s and
   * the abort rules (a later one wins). {@code RunOptionsForwardingTest} holds that every option of
   * the command reaches it, or is one the command itself acts on.
   */
  Map<String, String> forkProperties(RunSettings settings) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.putAll(forwardedProperties(System.getProperties()));
    properties.putAll(settings.toSystemProperties());
    properties.putAll(metricsProperties());
    properties.putAll(runProperties());
    properties.putAll(extraProperties());
    if (!abortRules.isEmpty()) {
      properties.put(FusilladeRun.ABORT_PROPERTY, String.join("\n", abortRules));
    }
    if (!faults.isEmpty()) {
      properties.put(FusilladeRun.FAULTS_PROPERTY, String.join("\n", faults));
    }
    if (!monitored.isEmpty()) {
      properties.put(
          ServerScraper.PROPERTY,
          String.join("\n", monitored.stream().map(ServerTarget::toLine).toList()));
    }
    return properties;
  }

  /**
   * The {@code fusillade.*} settings given to this JVM ({@code -D} in {@code FUSILLADE_JAVA_OPTS}:
   * {@code fusillade.failover}, {@code fusillade.system.processes}, {@code
   * fusillade.injector.lagThreshold}...), for the Gatling JVM, where they take effect; what the
   * command sets itself comes after them and wins. The pid of the parent is the launcher's own.
   */
  static Map<String, String> forwardedProperties(java.util.Properties mine) {
    Map<String, String> forwarded = new java.util.TreeMap<>();
    for (String name : mine.stringPropertyNames()) {
      if (name.startsWith("fusillade.") && !name.equals(FusilladeRun.PARENT_PID_PROPERTY)) {
        forwarded.put(name, mine.getProperty(name));
      }
    }
    return forwarded;
  }

  /** {@code --failover} and {@code --watch-process} as the Gatling JVM reads them. */
  private Map<String, String> runProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    if (injectors != null) {
      properties.put(InjectorShare.COUNT, injectors.toString());
    }
    if (injectorIndex != null) {
      properties.put(InjectorShare.INDEX, injectorIndex.toString());
    }
    if (startAt != null) {
      properties.put(InjectorShare.START_AT, startAt.strip());
    }
    if (failover != null) {
      properties.put("fusillade.failover", failover);
    }
    if (!watchProcesses.isEmpty()) {
      properties.put("fusillade.system.processes", String.join(",", watchProcesses));
    }
    if (!serverSettings.isEmpty()) {
      properties.put(SqlTarget.SERVER_SETTINGS_PROPERTY, String.join("\n", serverSettings));
    }
    if (replicas != null) {
      properties.put(SqlTarget.REPLICAS_PROPERTY, replicas.toString());
    }
    if (!replicaUrls.isEmpty()) {
      properties.put(SqlTarget.REPLICA_URLS_PROPERTY, String.join(",", replicaUrls));
    }
    if (searchNodes != null) {
      properties.put(LogsTarget.NODES_PROPERTY, searchNodes.toString());
    }
    if (logsTarget != null) {
      properties.put(
          LogsRun.TARGET_PROPERTY,
          io.fusillade.workload.LogsNames.target(logsTarget).orElse(logsTarget));
    }
    if (seqDbFound != null || seqdbBinary != null) {
      // the binary found before the fork, else the one given (the fork looks again)
      properties.put(
          io.fusillade.local.SeqDbBinary.PROPERTY,
          seqDbFound != null ? seqDbFound.toString() : seqdbBinary);
    }
    if (profile) {
      properties.put("fusillade.profile", "true");
    }
    if (files != null) {
      properties.put(LogsRun.FILES_PROPERTY, files);
    }
    return properties;
  }

  /** The live metrics' system properties for the Gatling JVM ({@link LiveMetrics}). */
  private Map<String, String> metricsProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    if (metricsPort != null) {
      properties.put(LiveMetrics.PORT_PROPERTY, Integer.toString(metricsPort));
    }
    if (influxUrl != null) {
      properties.put(InfluxPush.URL_PROPERTY, influxUrl);
    }
    if (metricsHold != null) {
      properties.put(
          LiveMetrics.HOLD_PROPERTY,
          Double.toString(SettingValues.parseDuration(metricsHold).toMillis() / 1000.0));
    }
    return properties;
  }

  /** How long an embedded server left by a dead Gatling JVM gets to stop before it is killed. */
  private static final Duration ORPHAN_GRACE = Duration.ofSeconds(10);

  /**
   * Rejects a zero or negative count, rate or duration before anything starts, naming the option:
   * the workload's own settings are checked the same way when it is loaded.
   */
  private void checkNumbers() {
    if (metricsPort != null && (metricsPort < 0 || metricsPort > 65535)) {
      throw new FusilladeException("--metrics-port must be 0-65535, got " + metricsPort);
    }
    if (metricsHold != null && metricsPort == null) {
      throw new FusilladeException("--metrics-hold needs --metrics-port");
    }
    if (metricsHold != null) {
      try {
        if (SettingValues.parseDuration(metricsHold).isNegative()) {
          throw new IllegalArgumentException();
        }
      } catch (IllegalArgumentException e) {
        throw new FusilladeException(
            "--metrics-hold: \"" + metricsHold + "\" is not a duration (examples: 15s, 1m)");
      }
    }
    if (influxUrl != null
        && !(influxUrl.startsWith("http://") || influxUrl.startsWith("https://"))) {
      throw new FusilladeException(
          "--influx-url: \""
              + influxUrl
              + "\" is not an http(s) URL (example: http://localhost:8086/write?db=fusillade)");
    }
    String[] names = {"--rate", "--users", "--peak", "--pool"};
    Integer[] values = {rate, users, peak, pool};
    for (int i = 0; i < names.length; i++) {
      if (values[i] != null && values[i] <= 0) {
        throw new FusilladeException(names[i] + " must be > 0, got " + values[i]);
      }
    }
    String[] durationNames = {"--duration", "--rise", "--hold", "--fall"};
    String[] durations = {duration, rise, hold, fall};
    for (int i = 0; i < durationNames.length; i++) {
      if (durations[i] == null) {
        continue;
      }
      Duration parsed;
      try {
        parsed = SettingValues.parseDuration(durations[i]);
      } catch (IllegalArgumentException e) {
        throw new FusilladeException(
            durationNames[i]
                + ": \""
                + durations[i]
                + "\" is not a duration (examples: 30s, 500ms, 2m)");
      }
      // A spike may hold or fall in no time; the run itself must last.
      if (parsed.isNegative() || (i == 0 && parsed.isZero())) {
        throw new FusilladeException(
            durationNames[i] + " must be " + (i == 0 ? "> 0" : ">= 0") + ", got " + durations[i]);
      }
    }
  }

  /** A spike's phase: null (the default) when not given. */
  private static Duration duration(String text) {
    return text == null ? null : SettingValues.parseDuration(text);
  }

  private static int exitCode(int gatling) {
    return switch (gatling) {
      case GatlingLauncher.SUCCESS -> 0;
      case GatlingLauncher.ASSERTIONS_FAILED -> 3; // Gatling's "assertions failed": a check failed
      default -> 1;
    };
  }
}
