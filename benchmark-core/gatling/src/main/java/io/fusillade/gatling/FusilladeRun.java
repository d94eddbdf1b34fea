package io.fusillade.gatling;

import io.fusillade.abort.AbortRule;
import io.fusillade.abort.AbortWatch;
import io.fusillade.fault.Fault;
import io.fusillade.fault.FaultSchedule;
import io.fusillade.fault.FaultTarget;
import io.fusillade.gatling.metrics.InfluxPush;
import io.fusillade.gatling.metrics.LiveMetrics;
import io.fusillade.health.InjectorLagMonitor;
import io.fusillade.record.RunAnalysis;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import io.fusillade.record.RunSettings;
import io.fusillade.record.RunStatus;
import io.fusillade.system.DirectorySize;
import io.fusillade.system.ServerScraper;
import io.fusillade.system.ServerTarget;
import io.fusillade.system.SystemSampler;
import io.fusillade.system.WatchedProcess;
import io.gatling.core.CoreComponents;
import io.netty.util.concurrent.EventExecutor;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.runtime.BoxedUnit;

/**
 * The Fusillade side of one Gatling run: its {@link RunRecorder}, the injector lag monitor on
 * Gatling's event loops, and what must close when the run ends.
 *
 * <p>Gatling runs one simulation per JVM, so there is one current run per JVM. It opens when the
 * first Fusillade protocol builds its components (just before injection starts) and closes when
 * Gatling terminates its actor system: after the simulation's {@code after()} hook, before Gatling
 * writes its HTML report. When the JVM exits, right after that report, it prints the summary of the
 * run and where its record is.
 *
 * <p>The summary and the checks come from the {@link RunAnalysis} found on the class path with
 * {@link ServiceLoader} (the {@code reports} module provides it); this class does not depend on the
 * reports. Without one, the run is recorded all the same and the end of the run says where the
 * record is and that {@code fusillade report} analyses it (and checks the checks' syntax).
 *
 * <p>How the run ended is in {@code run.json}: {@code completed}; {@code failed} when a Fusillade
 * protocol could not open (an unreachable server: Gatling then prints "Run crashed"), when Gatling
 * crashed the run later and its error reached the main thread, or when no request was sent; {@code
 * aborted} when the JVM was stopped (a signal, Ctrl-C) before Gatling ended the run. SIGINT and
 * SIGTERM while the load runs stop it gracefully ({@link StopSignals}): Gatling ends the run and
 * writes its report, the record says {@code stopped by SIGINT (Ctrl-C)} or {@code stopped by
 * SIGTERM}, and the JVM exits with the signal's code (130, 143). When the run failed, or one of its
 * checks failed, the JVM exits non-zero like Gatling does for its own failed assertions, so that
 * {@code mvn gatling:test} fails the build: exit code {@value #CHECKS_FAILED_EXIT} when a check
 * failed, {@value #RUN_FAILED_EXIT} when the run failed. The system property {@code
 * fusillade.checks.failBuild=false} turns both into a warning.
 *
 * <p>Settings, as system properties: {@code fusillade.runs.dir} (where run records go, default
 * {@code target/fusillade}), {@code fusillade.injector.lagThreshold} (p99 lag, in milliseconds,
 * above which the injector counts as saturated; default 20), {@code fusillade.system.processes}
 * (command names of processes whose CPU and memory to record, comma-separated, e.g. {@code
 * postgres,java}), {@code fusillade.system.stealThreshold} (average CPU steal, %, above which the
 * run is flagged; default 5). Every run samples system metrics once a second: see {@link
 * SystemSampler}.
 *
 * <p>Why one class of about 500 lines: Gatling gives a run no object of its own, so the run's state
 * (its recorder, what closes at the end, the declared checks and settings) is static here, and
 * every step of its life (open, parameters, close, verdict, exit code) must see the same state
 * under the same lock. The pieces that need none of it live beside it: {@link InjectionProfiles},
 * {@link GatlingLauncher}, and the reports behind {@link io.fusillade.record.RunAnalysis}.
 */
public final class FusilladeRun {
  private static final Logger LOG = LoggerFactory.getLogger(FusilladeRun.class);
  private static final String SIMULATION_CLASS = "io.gatling.javaapi.core.Simulation";
  private static final String STOP_LOAD_GENERATOR =
      "io.gatling.core.controller.Controller$Command$StopLoadGenerator";

  private static String simulation; // guarded by FusilladeRun.class
  private static final Map<String, Object> parameters = new LinkedHashMap<>();
  private static RunRecorder current;
  private static final Deque<AutoCloseable> closeAtEnd = new ArrayDeque<>();
  private static volatile boolean loadStopped;
  private static final List<WatchedProcess> watched = new ArrayList<>();
  private static final List<ServerTarget> monitored = new ArrayList<>();
  private static final Map<String, DirectorySize> watchedDirectories = new LinkedHashMap<>();
  private static final List<String> checks = new ArrayList<>();
  private static String crash; // guarded by FusilladeRun.class: why the run failed, or null
  private static Object controller; // guarded by FusilladeRun.class: Gatling's, to stop the run
  private static StopSignals.Received stoppedBy; // guarded by FusilladeRun.class, or null
  private static final List<AbortRule> abortRules = new ArrayList<>();
  private static final List<Fault> faults = new ArrayList<>();
  private static final Map<String, FaultTarget> faultTargets = new LinkedHashMap<>();
  private static FaultSchedule faultSchedule; // guarded by FusilladeRun.class, or null
  private static String abortedBy; // guarded by FusilladeRun.class: the broken abort rule, or null
  // Set by the first request a Fusillade action starts: Gatling's controller has started the
  // run, so it takes a stop (before that, a stop message would kill it and hang the run).
  private static volatile boolean injecting;

  /** The system property that, set to {@code false}, keeps failed checks from failing the build. */
  public static final String FAIL_BUILD_PROPERTY = "fusillade.checks.failBuild";

  /**
   * The JVM's exit code when a check failed: Gatling's own for failed assertions, which the
   * gatling-maven-plugin reports as such and {@code fusillade run} as a failed check.
   */
  public static final int CHECKS_FAILED_EXIT = 2;

  /**
   * The JVM's exit code when the run failed (crashed, or sent no request): Gatling's crash code.
   */
  public static final int RUN_FAILED_EXIT = 1;

  /**
   * The JVM's exit code when an abort rule stopped the run ({@link #abortWhen}); {@code fusillade
   * run} exits with it too.
   */
  public static final int ABORTED_EXIT = 4;

  /**
   * The system property of abort rules, one a line, beside those of {@link #abortWhen}: how {@code
   * fusillade run --abort-when} and a workload's {@code abort:} reach the Gatling JVM.
   */
  public static final String ABORT_PROPERTY = "fusillade.abort";

  /**
   * The system property of scheduled faults, one a line, beside those of {@link #faults}: how
   * {@code fusillade run --fault} and a workload's {@code faults:} reach the Gatling JVM.
   */
  public static final String FAULTS_PROPERTY = "fusillade.faults";

  /** The kind of the run record's event written when an abort rule stops the run. */
  public static final String ABORT_EVENT = "run-aborted";

  /** How long the exit code waits for the JVM's other shutdown hooks before it is set. */
  private static final long OTHER_HOOKS_WAIT_MS = 5_000;

  private FusilladeRun() {}

  /**
   * Adds parameters to the next run's {@code run.json} (seed, target, rows...). Call it from the
   * simulation's constructor. The target rate needs no call: the run records its injection
   * profile's (see {@link InjectionProfiles}); a {@code rate} given here replaces it.
   */
  public static synchronized void parameters(Map<String, ?> values) {
    parameters.putAll(values);
    if (current != null) {
      values.forEach(current::parameter);
    }
  }

  /**
   * Records what the run was asked to do in {@code run.json}, in {@link RunSettings}' spelling
   * (mode, rate, durationSeconds, seed, workload...). Call it from the simulation's constructor.
   * The workload runners call it; a simulation of its own needs not: the target rate of its
   * injection profile is recorded by itself.
   */
  public static void settings(RunSettings settings) {
    parameters(settings.toParameters());
  }

  /**
   * Records the CPU and memory of a process (and its descendants) beside the machine's, as {@code
   * process.<label>.cpu} and {@code process.<label>.rss}: the server under test when it runs
   * locally. Call it from the simulation's constructor, before the run starts.
   *
   * @param pid the process id, e.g. {@code LocalPostgres.pid()}
   * @param label the name in the gauges: letters, digits, '_' and '-'
   */
  public static synchronized void watchProcess(long pid, String label) {
    watched.add(WatchedProcess.ofPid(pid, label));
  }

  /**
   * Records the bytes held under some directories once a second, as gauge {@code
   * directory.<label>.bytes}: a local server's data on disk, such as the embedded Kafka's log
   * directories. Call it from the simulation's constructor, before the run starts.
   *
   * @param label the name in the gauge: letters, digits, '_' and '-'
   * @param directories the directories, counted together
   * @param suffix only the files whose names end so ({@code ".log"}: Kafka's segments), or {@code
   *     ""} for all
   */
  public static synchronized void watchDirectories(
      String label, List<Path> directories, String suffix) {
    watchedDirectories.put(DirectorySize.gauge(label), new DirectorySize(directories, suffix));
  }

  /**
   * Records a server's metrics second by second beside the requests, from its Prometheus endpoint
   * ({@code node_exporter}, cAdvisor, {@code postgres_exporter}, Kafka's JMX exporter, or {@code
   * fusillade agent} where the host runs none): gauges {@code server.<name>.*}, drawn in the report
   * and checked by {@code server cpu.steal < 5%}. Call it from the simulation's constructor, before
   * the run starts; {@code -Dfusillade.monitor} adds more, one {@code name=url} per line.
   *
   * @param targets the servers, e.g. {@code ServerTarget.of("db", "http://db1:9100/metrics")}
   */
  public static synchronized void monitor(ServerTarget... targets) {
    monitored.addAll(List.of(targets));
  }

  /**
   * Declares checks (SLOs) in {@code run.json}, such as {@code "p99 < 50ms"}, {@code "errors <
   * 1%"}, {@code "rate >= 99% of target"}; {@code fusillade report} evaluates them. The syntax is
   * checked here when the run analysis ({@code reports}) is on the class path, so a typo fails the
   * simulation before it runs; without it, {@code fusillade report} checks it after the run.
   *
   * @param texts the checks
   * @throws io.fusillade.FusilladeException naming a check with bad syntax and the position
   */
  public static synchronized void checks(String... texts) {
    Optional<RunAnalysis> analysis = Analysis.FOUND;
    if (analysis.isEmpty() && texts.length > 0) {
      LOG.info(
          "No run analysis (fusillade-reports) on the class path: the syntax of the checks {} is"
              + " validated when 'fusillade report' reads the run",
          List.of(texts));
    }
    for (String text : texts) {
      analysis.ifPresent(a -> a.validateCheck(text));
      checks.add(text);
      if (current != null) {
        current.check(text);
      }
    }
  }

  /**
   * Stops the run while it is under way when a condition holds over a window of its last seconds:
   * {@code "errors > 5% over 10s"} (failures of the system under test or the network, never the
   * injector's own), {@code "p99 > 2s over 30s"} (OK requests' latency from their intended start).
   * Judged on the live record at the end of every second; the first broken rule stops the load
   * within a second or two, as Ctrl-C does: the record says {@code aborted} with the rule and the
   * value, Gatling's and Fusillade's reports are written, and the JVM exits with {@value
   * #ABORTED_EXIT}. Call it from the simulation's constructor.
   *
   * @param rules the rules, e.g. {@code "errors > 5% over 10s"}
   * @throws IllegalArgumentException naming a rule that cannot be read, and the form
   */
  public static synchronized void abortWhen(String... rules) {
    for (String text : rules) {
      abortRules.add(AbortRule.parse(text));
    }
  }

  /**
   * Schedules faults during the run, counted from its start: {@code "at 30s pause broker 2 for
   * 10s"}, {@code "at 60s kill postgres for 5s"}, {@code "at 90s restart broker 1"} on the local
   * servers the run started (see {@link #faultTarget}), or {@code "at 20s run: ssh db3 sudo
   * systemctl stop postgresql"} for any other. Each is recorded as two events ({@code fault-start},
   * {@code fault-end}), shaded on the report's charts and measured by {@code recovery < 10s after
   * "kill broker 1"}. Call it from the simulation's constructor.
   *
   * @param texts the faults (see {@link Fault})
   * @throws IllegalArgumentException naming a fault that cannot be read, and the form
   */
  public static synchronized void faults(String... texts) {
    for (String text : texts) {
      faults.add(Fault.parse(text));
    }
  }

  /**
   * The nodes of {@code kind} that the run's faults act on with {@code action}: a local server
   * reaches the nodes that a fault delays ({@code delay broker 2 by 50ms for 10s}) through a delay
   * proxy from the start of the run, and runs those a fault pauses in processes of their own, so a
   * simulation asks before it starts its servers, after {@link #faults}.
   *
   * @param kind the name faults give the server ({@code broker}, {@code postgres})
   * @return the nodes, from 1; empty when none is
   */
  public static synchronized Set<Integer> faultedNodes(String kind, Fault.Action action) {
    Set<Integer> nodes = new TreeSet<>();
    List<Fault> scheduled;
    try {
      scheduled = scheduledFaults();
    } catch (IllegalArgumentException e) {
      return nodes; // said, with the fault, when the run starts and schedules them
    }
    for (Fault fault : scheduled) {
      if (fault.action() == action && fault.target().equals(kind)) {
        nodes.add(fault.node());
      }
    }
    return nodes;
  }

  /**
   * The faults of {@link #faults} and of {@link #FAULTS_PROPERTY}, each once: the workload's come
   * both ways under {@code fusillade run}.
   */
  private static synchronized List<Fault> scheduledFaults() {
    Map<String, Fault> byText = new LinkedHashMap<>();
    faults.forEach(f -> byText.putIfAbsent(f.text(), f));
    for (String line : System.getProperty(FAULTS_PROPERTY, "").split("\n")) {
      if (!line.isBlank()) {
        Fault f = Fault.parse(line);
        byText.putIfAbsent(f.text(), f);
      }
    }
    return List.copyOf(byText.values());
  }

  /**
   * Lets scheduled faults act on a local server the simulation started: {@code broker} for the
   * embedded Kafka's brokers, {@code postgres} for the embedded PostgreSQL. The workload runners
   * register theirs; call it from the simulation's constructor for a server of your own.
   *
   * @param kind the name faults give it ({@code pause KIND 2 for 10s}): lower-case letters, digits
   * @param target its nodes
   */
  public static synchronized void faultTarget(String kind, FaultTarget target) {
    faultTargets.put(kind, target);
  }

  /**
   * Remembers which simulation is being built, from the call stack: the first class that extends
   * Gatling's {@code Simulation}. Protocol and action builders call this; it costs a stack walk at
   * build time only.
   */
  public static void noteSimulation() {
    Optional<String> found =
        StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
            .walk(
                frames ->
                    frames
                        .map(StackWalker.StackFrame::getDeclaringClass)
                        .filter(FusilladeRun::isSimulation)
                        .map(Class::getName)
                        .findFirst());
    found.ifPresent(
        name -> {
          synchronized (FusilladeRun.class) {
            if (simulation == null) {
              simulation = name;
            }
          }
        });
  }

  private static boolean isSimulation(Class<?> type) {
    for (Class<?> c = type.getSuperclass(); c != null; c = c.getSuperclass()) {
      if (c.getName().equals(SIMULATION_CLASS)) {
        return true;
      }
    }
    return false;
  }

  /** The recorder of the current run, opened on first call with Gatling's components. */
  public static synchronized RunRecorder recorder(CoreComponents core) {
    if (current == null) {
      if (ParentWatch.gone()) {
        // this JVM is exiting (parentGone): an orphan opens no run record
        throw new io.fusillade.FusilladeException(
            "the process that started this run is gone: no run is opened");
      }
      String name =
          System.getProperty(
              "fusillade.simulation", simulation != null ? simulation : "simulation");
      // The injection profile's target rate, unless the simulation recorded one itself.
      parameters.putAll(InjectionProfiles.parameters(core, parameters));
      RunRecorder run = RunRecorder.open(RunOptions.of(name).withParameters(parameters));
      ParentWatch.opened(run);
      // The live endpoint and the InfluxDB push when asked for (-Dfusillade.metrics.port,
      // -Dfusillade.influx.url), fed by the record's flushes; a port that cannot be listened on or
      // a bad URL fails the run before it starts.
      Map<String, Object> shown = new LinkedHashMap<>(parameters);
      shown.put("simulation", name);
      try {
        LiveMetrics.fromSystemProperties(run, shown);
        InfluxPush.fromSystemProperties(run);
        String progress = System.getProperty(PROGRESS_PROPERTY);
        if (progress != null) {
          run.listen(new ConsoleProgress(System.out, Integer.parseInt(progress.trim())));
        }
        List<AbortRule> rules = new ArrayList<>(abortRules);
        for (String line : System.getProperty(ABORT_PROPERTY, "").split("\n")) {
          if (!line.isBlank()) {
            rules.add(AbortRule.parse(line));
          }
        }
        if (!rules.isEmpty()) {
          run.listen(new AbortWatch(rules, FusilladeRun::abortOnRule));
        }
        List<ServerTarget> servers = new ArrayList<>(monitored);
        servers.addAll(ServerTarget.parseLines(System.getProperty(ServerScraper.PROPERTY)));
        servers.addAll(ServerTarget.parseLines(System.getenv(ServerScraper.ENVIRONMENT)));
        ServerScraper.install(run, servers);
        watchedDirectories.forEach(run::gauge);
        List<Fault> scheduled = scheduledFaults();
        if (!scheduled.isEmpty()) {
          run.parameter("faults", scheduled.stream().map(Fault::text).toList());
          faultSchedule = FaultSchedule.start(scheduled, faultTargets, run);
        }
      } catch (RuntimeException e) {
        run.close(RunStatus.FAILED, e.getMessage());
        throw e;
      }
      List<EventExecutor> loops = new ArrayList<>();
      core.eventLoopGroup().forEach(loops::add);
      InjectorLagMonitor.install(run, loops, InjectorLagMonitor.DEFAULT_PERIOD, lagThreshold());
      checks.forEach(run::check);
      installSystemSampler(run);
      Profiling.startIfAsked(run);
      core.actorSystem()
          .registerOnTermination(
              () -> {
                finish(false);
                return BoxedUnit.UNIT;
              });
      watchForCrash(run);
      run.onWriteFailure(reason -> stopOnWriteFailure(core, reason));
      // Stopped by a signal or Ctrl-C, Gatling never terminates its actor system: end the run here
      // (aborted), with its summary, before the recorder's own hook would close it silently.
      Runtime.getRuntime().addShutdownHook(new Thread(() -> finish(true), "fusillade-run-abort"));
      // ... unless the signal comes while the load runs: then Gatling is asked to stop, so that
      // it ends the run and writes its report (see StopSignals).
      controller = core.controller();
      StopSignals.install(FusilladeRun::stopOnSignal);
      current = run;
      loadStopped = false;
      LOG.info("Fusillade run record: {}", run.directory().toAbsolutePath());
    }
    return current;
  }

  /**
   * The system property {@link GatlingLauncher} sets to the pid of the JVM that forks Gatling
   * ({@code fusillade run}). Informational: the fork watches its parent through its standard input
   * ({@link ParentWatch}).
   */
  public static final String PARENT_PID_PROPERTY = "fusillade.parentPid";

  /**
   * Prints the run's progress on standard output every so many seconds ({@code
   * -Dfusillade.progress=5}), from the record's per-second totals: {@code fusillade run} sets it
   * and turns Gatling's console writer off, whose cost per request it saves.
   */
  public static final String PROGRESS_PROPERTY = "fusillade.progress";

  /**
   * Closes {@code resource} when the run ends, before the run record is closed; resources close in
   * the reverse order of registration (a server registered in the simulation's constructor closes
   * after the protocol clients that use it). Returns the resource.
   */
  public static synchronized <T extends AutoCloseable> T closeAtEnd(T resource) {
    closeAtEnd.push(resource);
    return resource;
  }

  private static void installSystemSampler(RunRecorder run) {
    List<WatchedProcess> processes = new ArrayList<>(watched);
    for (String name : System.getProperty("fusillade.system.processes", "").split(",")) {
      if (!name.isBlank()) {
        processes.add(WatchedProcess.ofName(name.strip()));
      }
    }
    SystemSampler.Options defaults = SystemSampler.Options.defaults();
    double steal =
        Double.parseDouble(
            System.getProperty(
                "fusillade.system.stealThreshold",
                Double.toString(SystemSampler.DEFAULT_STEAL_THRESHOLD_PERCENT)));
    SystemSampler.install(
        run, new SystemSampler.Options(defaults.procRoot(), defaults.sysBlock(), processes, steal));
  }

  static Duration lagThreshold() {
    String value = System.getProperty("fusillade.injector.lagThreshold");
    if (value == null) {
      return InjectorLagMonitor.DEFAULT_THRESHOLD;
    }
    return Duration.ofNanos(Math.round(Double.parseDouble(value) * 1e6));
  }

  /**
   * Notes why the run failed: a Fusillade protocol's components could not open (Gatling then
   * crashes the run). The run record, if open, ends as {@code failed} with this reason; the first
   * reason noted wins.
   *
   * @param cause the error
   */
  static synchronized void failed(Throwable cause) {
    if (crash == null) {
      crash = oneLine(cause);
    }
  }

  /**
   * The record can no longer be written (a full disk): the run has nothing to measure with, so
   * Gatling stops injecting at once and ends the run as it ends any other (its report written), and
   * the record closes as {@code failed} with the recorder's reason, which also makes the exit code
   * {@value #RUN_FAILED_EXIT}.
   */
  private static void stopOnWriteFailure(CoreComponents core, String reason) {
    synchronized (FusilladeRun.class) {
      if (crash == null) {
        crash = reason;
      }
    }
    try {
      // Gatling's own stopLoadGenerator: a graceful end. Its class is a Scala case class nested
      // in an object, which javac cannot name.
      Object stop =
          Class.forName(STOP_LOAD_GENERATOR)
              .getConstructor(String.class, boolean.class)
              .newInstance(reason, false);
      core.controller().$bang((io.gatling.core.controller.Controller.Command) stop);
      loadStopped = true;
    } catch (ReflectiveOperationException | ClassCastException e) {
      LOG.error("Could not stop the run after the record failed: {}", e.toString());
    }
  }

  private static String oneLine(Throwable cause) {
    Throwable root = cause;
    while (root.getCause() != null && root.getCause() != root && root.getMessage() == null) {
      root = root.getCause();
    }
    String message = root.getMessage();
    String text =
        message == null || message.isBlank() ? root.getClass().getSimpleName() : message.strip();
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline).strip();
  }

  /**
   * Ends the current run: closes the resources, then the record, then prints the summary when the
   * JVM exits (Gatling writes its HTML report in between).
   *
   * @param aborted true from the shutdown hook: the JVM is stopping before Gatling ended the run
   */
  private static void finish(boolean aborted) {
    RunRecorder run;
    List<AutoCloseable> resources;
    String failure;
    StopSignals.Received signal;
    String rule;
    FaultSchedule schedule;
    synchronized (FusilladeRun.class) {
      run = current;
      if (run == null) {
        return;
      }
      resources = new ArrayList<>(closeAtEnd);
      failure = crash;
      // the signal as StopSignals knows it now: a Ctrl-C overtaken by the CLI's SIGTERM is a Ctrl-C
      signal = stoppedBy != null && StopSignals.first() != null ? StopSignals.first() : stoppedBy;
      stoppedBy = null;
      rule = abortedBy;
      abortedBy = null;
      abortRules.clear();
      schedule = faultSchedule;
      faultSchedule = null;
      faults.clear();
      faultTargets.clear();
      controller = null;
      closeAtEnd.clear();
      current = null;
      simulation = null;
      crash = null;
      parameters.clear();
      watched.clear();
      monitored.clear();
      watchedDirectories.clear();
      checks.clear();
    }
    if (schedule != null) {
      // before the record closes (the faults' ends are events) and the servers stop (a paused
      // one is resumed so that it can)
      schedule.close();
    }
    if (rule != null && !aborted) {
      // As on a signal: close the record at the stop, then the clients the users still hold.
      run.close(RunStatus.ABORTED, abortedReason(rule));
      closeAll(resources);
      printAtExitAborted(run, rule);
      return;
    }
    if (signal != null && !aborted) {
      // Gatling stopped the run on a signal: its users may still be sending, so close the record
      // first (it ends at the stop, not with errors from closed pools), then the clients.
      run.close(RunStatus.ABORTED, stoppedReason(signal));
      closeAll(resources);
      printAtExit(run, signal);
      return;
    }
    if (aborted) {
      // Virtual users may still be sending: close the record before the clients they use, so
      // that it ends at the signal rather than with errors from closed pools.
      run.close(
          RunStatus.ABORTED, rule != null ? abortedReason(rule) : RunRecorder.ABORTED_BY_SHUTDOWN);
      closeAll(resources);
      // The JVM is exiting on a signal: its exit code says so already.
      printSummary(run, System.out);
      return;
    }
    closeAll(resources);
    if (failure != null) {
      run.close(RunStatus.FAILED, failure);
    } else {
      run.close();
    }
    printAtExit(run, null);
  }

  /** The reason of a run stopped by a broken abort rule, in {@code run.json}. */
  static String abortedReason(String rule) {
    return "stopped by its abort rule: " + rule;
  }

  /**
   * An abort rule broke ({@link AbortWatch}, on the recorder's flushing thread, under its lock):
   * from another thread, mark the record and ask Gatling to stop as on a signal. When Gatling
   * cannot take the stop (the run has not started injecting), the JVM exits: the shutdown hook
   * closes the record as aborted.
   */
  private static void abortOnRule(String rule) {
    Thread stopper =
        new Thread(
            () -> {
              RunRecorder run;
              Object gatling;
              synchronized (FusilladeRun.class) {
                if (current == null || stoppedBy != null || abortedBy != null) {
                  return; // ending already
                }
                abortedBy = rule;
                run = current;
                gatling = injecting ? controller : null;
              }
              run.event(ABORT_EVENT, "run", rule);
              System.out.println(
                  "Fusillade: abort rule broken: "
                      + rule
                      + ": stopping the load; the reports follow.");
              if (gatling == null || !stopLoad(gatling, abortedReason(rule))) {
                System.exit(ABORTED_EXIT);
              }
            },
            "fusillade-abort");
    stopper.setDaemon(true);
    stopper.start();
  }

  /**
   * Prints the summary when the JVM exits after an abort rule stopped the run, and sets the exit
   * code {@value #ABORTED_EXIT} (unless {@value #FAIL_BUILD_PROPERTY} is false).
   */
  private static void printAtExitAborted(RunRecorder run, String rule) {
    Thread printer =
        new Thread(
            () -> {
              printSummary(run, System.out);
              if (failBuild()) {
                System.out.println(
                    "Fusillade: exit code "
                        + ABORTED_EXIT
                        + " (the run was "
                        + abortedReason(rule)
                        + ").");
                exitWith(ABORTED_EXIT);
              } else {
                System.out.println(
                    "WARNING: the run was "
                        + abortedReason(rule)
                        + "; -D"
                        + FAIL_BUILD_PROPERTY
                        + "=false keeps the exit code at Gatling's.");
              }
            },
            "fusillade-summary");
    try {
      Runtime.getRuntime().addShutdownHook(printer);
    } catch (IllegalStateException alreadyExiting) {
      printer.run();
    }
  }

  /** The reason of a run stopped by {@code signal}, in {@code run.json}. */
  static String stoppedReason(StopSignals.Received signal) {
    return "stopped by " + signal.describe();
  }

  /**
   * Prints the summary when the JVM exits, and sets the exit code: Gatling writes its HTML report
   * next and then exits, so ours comes last, where it is seen. A run stopped by a signal exits with
   * the signal's code (128 + its number), as the JVM would have without Fusillade.
   */
  private static void printAtExit(RunRecorder run, StopSignals.Received signal) {
    Thread printer =
        new Thread(
            () -> {
              boolean passed = printSummary(run, System.out);
              if (signal != null) {
                System.out.println(
                    "Fusillade: exit code "
                        + signal.exitCode()
                        + " (the run was stopped by "
                        + signal.describe()
                        + ").");
                exitWith(signal.exitCode());
                return;
              }
              int exit = exitCode(run.status(), passed, failBuild());
              if (exit != 0) {
                System.out.println(
                    "Fusillade: exit code "
                        + exit
                        + (exit == CHECKS_FAILED_EXIT
                            ? " (a check failed)"
                            : " (the run " + run.status().jsonName() + ")")
                        + "; -D"
                        + FAIL_BUILD_PROPERTY
                        + "=false makes it a warning.");
                exitWith(exit);
              } else if (!passed || run.status() != RunStatus.COMPLETED) {
                System.out.println(
                    "WARNING: the run "
                        + (run.status() == RunStatus.COMPLETED
                            ? "did not pass its checks"
                            : run.status().jsonName())
                        + "; -D"
                        + FAIL_BUILD_PROPERTY
                        + "=false keeps the exit code at Gatling's.");
              }
            },
            "fusillade-summary");
    try {
      Runtime.getRuntime().addShutdownHook(printer);
    } catch (IllegalStateException alreadyExiting) {
      printer.run();
    }
  }

  /**
   * The first SIGINT or SIGTERM ({@link StopSignals}). While the load runs, asks Gatling's
   * controller to stop the run as its {@code stopLoadGenerator} action does: Gatling then ends the
   * run (the record closes as aborted) and writes its report, and the JVM exits with the signal's
   * code. Before the first request (the controller may not have started the run yet), and after the
   * run ended (Gatling writes its report, or a JVM whose main thread died is kept alive by a
   * library's threads), the JVM exits as it would without Fusillade: the shutdown hooks close the
   * record as aborted if it is still open, and print the summary.
   */
  private static void stopOnSignal(StopSignals.Received signal) {
    Object gatling;
    synchronized (FusilladeRun.class) {
      gatling = current != null && injecting ? controller : null;
      if (gatling != null) {
        stoppedBy = signal;
      }
    }
    if (gatling != null && stopLoad(gatling, stoppedReason(signal))) {
      System.out.println(
          "Fusillade: "
              + signal.describe()
              + ": stopping the load; the reports follow (Ctrl-C again to exit at once).");
      return;
    }
    synchronized (FusilladeRun.class) {
      stoppedBy = null;
    }
    System.exit(signal.exitCode());
  }

  /**
   * Sends Gatling's controller the message of its {@code stopLoadGenerator} action. The message
   * type is internal to Gatling (Scala, {@code private[gatling]}): reached by reflection, so that a
   * Gatling that changed it makes the stop fall back to the JVM's exit rather than break the build.
   *
   * @return whether the message was sent
   */
  private static boolean stopLoad(Object controller, String reason) {
    try {
      ClassLoader loader = CoreComponents.class.getClassLoader();
      Class<?> type =
          Class.forName(
              "io.gatling.core.controller.Controller$Command$StopLoadGenerator", true, loader);
      Object command = type.getConstructor(String.class, boolean.class).newInstance(reason, false);
      Class.forName("io.gatling.core.actor.ActorRef", true, loader)
          .getMethod("$bang", Object.class)
          .invoke(controller, command);
      loadStopped = true;
      return true;
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      LOG.warn("Could not ask Gatling to stop the run ({}): exiting instead", e.toString());
      return false;
    }
  }

  /**
   * Whether the run was asked to stop its load (a signal, an abort rule, a failed record): pacers
   * that send their own arrivals ({@link FusilladeArrivals}) send no more, as Gatling's injector
   * starts no more users.
   */
  public static boolean loadStopped() {
    return loadStopped;
  }

  /** Notes that a Fusillade action started a request: Gatling's controller runs the load. */
  static void noteInjecting() {
    if (!injecting) {
      injecting = true;
    }
  }

  /**
   * Gatling ends a crashed run (closing it as completed, when the crash did not come from a
   * Fusillade protocol) and then rethrows the error from its main method. With Gatling's own
   * launcher ({@code fusillade run}, the Gatling bundle) the error then reaches the main thread's
   * uncaught-exception handler, before the shutdown hooks run: mark the run failed there. (The
   * gatling-maven-plugin's launcher catches the error itself and exits with -1: the exit code fails
   * the build all the same.)
   */
  private static void watchForCrash(RunRecorder run) {
    Thread main = Thread.currentThread();
    if (!main.getName().equals("main")) {
      return; // Gatling builds its protocols on its main thread; elsewhere, leave the handler alone
    }
    Thread.UncaughtExceptionHandler previous = main.getUncaughtExceptionHandler();
    main.setUncaughtExceptionHandler(
        (thread, error) -> {
          run.failAfterClose(oneLine(error));
          previous.uncaughtException(thread, error);
        });
  }

  private static void closeAll(List<AutoCloseable> resources) {
    for (AutoCloseable resource : resources) {
      try {
        resource.close();
      } catch (Exception e) {
        LOG.warn("Could not close {} at the end of the run: {}", resource, e.toString());
      }
    }
  }

  /** Whether failed checks and failed runs fail the build: {@value #FAIL_BUILD_PROPERTY}. */
  static boolean failBuild() {
    return !"false".equalsIgnoreCase(System.getProperty(FAIL_BUILD_PROPERTY, "true").strip());
  }

  /**
   * The exit code the JVM must end with after a run, or 0 to leave Gatling's.
   *
   * @param status how the run ended
   * @param passed whether every check passed (false as well when the run did not complete)
   * @param failBuild {@value #FAIL_BUILD_PROPERTY}
   * @return {@value #RUN_FAILED_EXIT} for a run that did not complete, {@value #CHECKS_FAILED_EXIT}
   *     for a failed check, 0 otherwise or when {@code failBuild} is false
   */
  static int exitCode(RunStatus status, boolean passed, boolean failBuild) {
    if (!failBuild) {
      return 0;
    }
    if (status != RunStatus.COMPLETED) {
      return RUN_FAILED_EXIT;
    }
    return passed ? 0 : CHECKS_FAILED_EXIT;
  }

  /**
   * Ends the JVM with {@code code}, from the shutdown hook that printed the summary. The JVM is
   * already exiting (Gatling called {@code System.exit} with its own code, which no API can change
   * any more), so the code can only be set with {@link Runtime#halt}; halting skips the shutdown
   * hooks still running, so first give them (an embedded server stopping, a log flushing) up to
   * {@value #OTHER_HOOKS_WAIT_MS} ms to finish. The threads waited for are the live non-daemon
   * threads other than this one and the one blocked in {@code System.exit}.
   */
  private static void exitWith(int code) {
    System.out.flush();
    System.err.flush();
    long deadline = System.currentTimeMillis() + OTHER_HOOKS_WAIT_MS;
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread == Thread.currentThread() || thread.isDaemon() || exiting(thread)) {
        continue;
      }
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        break;
      }
      try {
        thread.join(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    Runtime.getRuntime().halt(code);
  }

  /** Whether the thread is the one that started the JVM's shutdown (it waits there for ever). */
  private static boolean exiting(Thread thread) {
    for (StackTraceElement frame : thread.getStackTrace()) {
      if (frame.getClassName().equals("java.lang.Shutdown")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The run analysis on the class path, looked up once, when first needed: the {@code reports}
   * module's, or none.
   */
  private static final class Analysis {
    static final Optional<RunAnalysis> FOUND = find();

    private static Optional<RunAnalysis> find() {
      try {
        return ServiceLoader.load(RunAnalysis.class, FusilladeRun.class.getClassLoader())
            .findFirst();
      } catch (ServiceConfigurationError e) {
        LOG.warn("Could not load the run analysis: {}", e.toString());
        return Optional.empty();
      }
    }
  }

  /** The run analysis found on the class path, if any. */
  static Optional<RunAnalysis> analysis() {
    return Analysis.FOUND;
  }

  private static boolean printSummary(RunRecorder run, PrintStream out) {
    return printSummary(run.directory().toAbsolutePath(), Analysis.FOUND, out);
  }

  /**
   * With a run analysis: writes Fusillade's report of the run into its directory ({@code
   * report/index.html}, {@code summary.json}, {@code junit.xml}) and prints its table and its
   * checks. Either way, prints where the record is.
   *
   * @return whether every check passed; true without an analysis (nothing was checked)
   */
  static boolean printSummary(Path directory, Optional<RunAnalysis> analysis, PrintStream out) {
    out.println();
    boolean passed = true;
    if (analysis.isPresent()) {
      try {
        passed = analysis.get().finish(directory, out);
      } catch (RuntimeException e) { // a bug in the analysis must not hide where the record is
        LOG.warn("Could not analyse the run record {}: {}", directory, e.toString());
      }
    } else {
      out.println(
          "No run analysis on the class path (add fusillade-reports to print the summary here):"
              + " 'fusillade report "
              + directory
              + "' summarises the run and validates and evaluates its checks.");
    }
    out.println("Fusillade run record: " + directory);
    out.println();
    out.flush();
    return passed;
  }
}
