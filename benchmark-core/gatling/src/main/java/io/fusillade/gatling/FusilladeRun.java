package io.fusillade.gatling;

import io.fusillade.abort.AbortRule;
import io.fusillade.fault.Fault;
import io.fusillade.fault.FaultTarget;
import io.fusillade.plan.PlanProperties;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunAnalysis;
import io.fusillade.record.RunRecorder;
import io.fusillade.record.RunSettings;
import io.fusillade.system.DirectorySize;
import io.fusillade.system.ServerTarget;
import io.fusillade.system.WatchedProcess;
import io.gatling.core.CoreComponents;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a simulation and Fusillade's protocols say to the run of this JVM: its parameters, checks,
 * abort rules, faults, what to watch and what to close at its end, and the {@link RunRecorder} the
 * protocols record into. Static, because Gatling runs one simulation per JVM and gives a run no
 * object a simulation could reach; behind these methods the run is an object: {@link GatlingRun}
 * (its life, from the first protocol to build its components to the end), {@link RunEnding} (its
 * verdict and the JVM's exit code), {@link RunSteering} (stopping it early), and {@link RunSlot}
 * (the one place that holds it). Protocol builders hold protocol settings only: what concerns the
 * run (its end hooks, its injection steps, its name) is declared here.
 *
 * <p>Its settings come from the {@link RunPlan}: the command line's, or the documented {@code -D}
 * settings of a {@code mvn gatling:test} run ({@link PlanProperties}).
 *
 * <p>The summary and the checks come from the {@link RunAnalysis} found on the class path (the
 * {@code reports} module provides it); without one, the run is recorded all the same and the end of
 * the run says where the record is. Under Maven, a failed check or run fails the build like
 * Gatling's own failed assertions ({@value #CHECKS_FAILED_EXIT}, {@value #RUN_FAILED_EXIT}; {@value
 * #ABORTED_EXIT} when an abort rule stopped it), unless {@code -D}{@value #FAIL_BUILD_PROPERTY}
 * {@code =false}.
 */
public final class FusilladeRun {
  private static final Logger LOG = LoggerFactory.getLogger(FusilladeRun.class);
  private static final String SIMULATION_CLASS = "io.gatling.javaapi.core.Simulation";

  /** The system property that, set to {@code false}, keeps failed checks from failing the build. */
  public static final String FAIL_BUILD_PROPERTY = PlanProperties.FAIL_BUILD;

  /**
   * The JVM's exit code under Maven when a check failed: Gatling's own for failed assertions, which
   * the gatling-maven-plugin reports as such.
   */
  public static final int CHECKS_FAILED_EXIT = RunEnding.CHECKS_FAILED_EXIT;

  /**
   * The JVM's exit code when the run failed (crashed, or sent no request): Gatling's crash code.
   */
  public static final int RUN_FAILED_EXIT = RunEnding.RUN_FAILED_EXIT;

  /** The JVM's exit code when an abort rule stopped the run ({@link #abortWhen}). */
  public static final int ABORTED_EXIT = RunEnding.ABORTED_EXIT;

  /** The kind of the run record's event written when an abort rule stops the run. */
  public static final String ABORT_EVENT = "run-aborted";

  private FusilladeRun() {}

  /**
   * Adds parameters to the next run's {@code run.json} (seed, target, rows...). Call it from the
   * simulation's constructor. The target rate needs no call: the run records its injection
   * profile's (see {@link InjectionProfiles}); a {@code rate} given here replaces it.
   */
  public static void parameters(Map<String, ?> values) {
    noteSimulation();
    RunSlot.declare(d -> d.parameters.putAll(values));
    GatlingRun run = RunSlot.current();
    if (run != null) {
      values.forEach(run.recorder::parameter);
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
  public static void watchProcess(long pid, String label) {
    noteSimulation();
    WatchedProcess process = WatchedProcess.ofPid(pid, label);
    RunSlot.declare(d -> d.watched.add(process));
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
  public static void watchDirectories(String label, List<Path> directories, String suffix) {
    String gauge = DirectorySize.gauge(label);
    DirectorySize size = new DirectorySize(directories, suffix);
    RunSlot.declare(d -> d.directories.put(gauge, size));
  }

  /**
   * Records the use, in %, of a local server's disk of a chosen size once a second, as gauge {@code
   * directory.<label>.use}: the embedded Kafka's brokers on disks of {@code
   * -Dkafka.embedded.diskSize}, which the {@code disk < 80%} and {@code disk not full} limit
   * objectives read. Call it from the simulation's constructor, before the run starts.
   *
   * @param label the name in the gauge: letters, digits, '_' and '-'
   * @param percent the use now, 0 to 100 (NaN when unknown: no value that second)
   */
  public static void watchDiskUse(String label, java.util.function.DoubleSupplier percent) {
    String bytes = DirectorySize.gauge(label); // checks the label
    String gauge = bytes.substring(0, bytes.length() - ".bytes".length()) + ".use";
    RunSlot.declare(d -> d.directories.put(gauge, percent));
  }

  /**
   * Records a server's metrics second by second beside the requests, from its Prometheus endpoint
   * ({@code node_exporter}, cAdvisor, {@code postgres_exporter}, Kafka's JMX exporter, or {@code
   * fusillade agent} where the host runs none): gauges {@code server.<name>.*}, drawn in the report
   * and checked by {@code server cpu.steal < 5%}. Call it from the simulation's constructor, before
   * the run starts; the run plan ({@code -Dfusillade.monitor}) adds more, one {@code name=url} per
   * line.
   *
   * @param targets the servers, e.g. {@code ServerTarget.of("db", "http://db1:9100/metrics")}
   */
  public static void monitor(ServerTarget... targets) {
    noteSimulation();
    RunSlot.declare(d -> d.monitored.addAll(List.of(targets)));
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
  public static void checks(String... texts) {
    noteSimulation();
    Optional<RunAnalysis> analysis = RunEnding.analysis();
    if (analysis.isEmpty() && texts.length > 0) {
      LOG.info(
          "No run analysis (fusillade-reports) on the class path: the syntax of the checks {} is"
              + " validated when 'fusillade report' reads the run",
          List.of(texts));
    }
    for (String text : texts) {
      analysis.ifPresent(a -> a.validateCheck(text));
    }
    RunSlot.declare(d -> d.checks.addAll(List.of(texts)));
    GatlingRun run = RunSlot.current();
    if (run != null) {
      List.of(texts).forEach(run.recorder::check);
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
  public static void abortWhen(String... rules) {
    noteSimulation();
    List<AbortRule> parsed = List.of(rules).stream().map(AbortRule::parse).toList();
    RunSlot.declare(d -> d.abortRules.addAll(parsed));
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
  public static void faults(String... texts) {
    noteSimulation();
    List<Fault> parsed = List.of(texts).stream().map(Fault::parse).toList();
    RunSlot.declare(d -> d.faults.addAll(parsed));
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
  public static Set<Integer> faultedNodes(String kind, Fault.Action action) {
    Set<Integer> nodes = new TreeSet<>();
    List<Fault> scheduled;
    RunPlan plan = RunPlan.current();
    try {
      scheduled = RunSlot.declared(d -> GatlingRun.scheduledFaults(d, plan));
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
   * Lets scheduled faults act on a local server the simulation started: {@code broker} for the
   * embedded Kafka's brokers, {@code postgres} for the embedded PostgreSQL. The workload runners
   * register theirs; call it from the simulation's constructor for a server of your own.
   *
   * @param kind the name faults give it ({@code pause KIND 2 for 10s}): lower-case letters, digits
   * @param target its nodes
   */
  public static void faultTarget(String kind, FaultTarget target) {
    noteSimulation();
    RunSlot.declare(d -> d.faultTargets.put(kind, target));
  }

  /**
   * Declares the log file of the server the run started, what a {@code logs: embedded} monitor
   * source counts the lines of.
   *
   * @param file the embedded server's log file
   */
  public static void embeddedLog(java.nio.file.Path file) {
    RunSlot.declare(d -> d.embeddedLog = file);
  }

  /**
   * Runs {@code hook} when the run ends, once for each of its protocols' components of type {@code
   * components}, after they closed (a topic protocol's consumers have drained) and before the run
   * record closes: the place to judge steps of a run or add a summary to {@code run.json}. A hook
   * that throws is logged and the others run. Call it from the simulation's constructor.
   *
   * <pre>{@code
   * FusilladeRun.onEnd(KafkaComponents.class, (c, recorder) -> steps.accept(c.client(), recorder));
   * }</pre>
   *
   * @param components the components' class, e.g. {@code KafkaComponents.class}
   * @param hook what to run with them and the run's recorder
   */
  public static <C> void onEnd(Class<C> components, BiConsumer<? super C, RunRecorder> hook) {
    noteSimulation();
    EndHook<C> end = new EndHook<>(components, hook);
    RunSlot.declare(d -> d.endHooks.add(end));
  }

  /**
   * Declares that the load is injected as {@code rates.size()} steps of {@code step} each: the
   * protocols that report per step write their report to {@code run.json} (logs: documents/s and
   * MiB/s of each step, parameter {@code steps}). Call it from the simulation's constructor.
   *
   * <pre>{@code
   * FusilladeRun.injectionSteps(List.of(1000.0, 2000.0), Duration.ofSeconds(30));
   * }</pre>
   *
   * @param rates the target rate of each step
   * @param step how long each lasts
   */
  public static void injectionSteps(List<Double> rates, Duration step) {
    noteSimulation();
    StepPlan plan = new StepPlan(rates, step);
    RunSlot.declare(d -> d.steps = plan);
  }

  /**
   * Declares this injector's offset to the clock the injectors of one test share (the system under
   * test's, {@link ClockOffset}): a protocol whose messages one injector writes and another reads
   * (topics) stamps them on that clock. Call it from the simulation's constructor; {@code fusillade
   * run --injectors N} does, once it measured the offset.
   *
   * <pre>{@code
   * FusilladeRun.referenceClock(ClockOffset.measure(reference, "db1"));
   * }</pre>
   *
   * @param clock the offset
   */
  public static void referenceClock(ClockOffset clock) {
    noteSimulation();
    RunSlot.declare(d -> d.referenceClock = clock);
  }

  /** The offset declared by {@link #referenceClock(ClockOffset)}, if any. */
  public static Optional<ClockOffset> referenceClock() {
    return Optional.ofNullable(RunSlot.declared(d -> d.referenceClock));
  }

  /** The injection steps the simulation declared ({@link #injectionSteps}), if any. */
  public static Optional<StepPlan> stepPlan() {
    return Optional.ofNullable(RunSlot.declared(d -> d.steps));
  }

  /**
   * The load injected as steps of one length each, for the protocols' step reports.
   *
   * @param rates the target rate of each step
   * @param step each one's length
   */
  public record StepPlan(List<Double> rates, Duration step) {
    /** Copies the rates; the step is positive. */
    public StepPlan {
      rates = List.copyOf(rates);
      if (step == null || step.isNegative() || step.isZero()) {
        throw new IllegalArgumentException("an injection step lasts more than 0 s, got " + step);
      }
    }
  }

  /** The end hooks of {@code components}, as declared now, run after they close. */
  static List<Runnable> endHooks(Object components, RunRecorder recorder) {
    List<EndHook<?>> hooks = RunSlot.declared(d -> List.copyOf(d.endHooks));
    return hooks.stream()
        .filter(h -> h.type().isInstance(components))
        .map(h -> (Runnable) () -> h.run(components, recorder))
        .toList();
  }

  /** A hook of {@link #onEnd}. */
  record EndHook<C>(Class<C> type, BiConsumer<? super C, RunRecorder> hook) {
    void run(Object components, RunRecorder recorder) {
      hook.accept(type.cast(components), recorder);
    }
  }

  /**
   * Remembers which simulation is being built, from the call stack: the first class that extends
   * Gatling's {@code Simulation}. The run API's methods call this from the simulation's
   * constructor; it costs a stack walk at build time only. A simulation that calls none is named
   * from the command line ({@link #simulationOfCommand}).
   */
  private static void noteSimulation() {
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
        name ->
            RunSlot.declare(
                d -> {
                  if (d.simulation == null) {
                    d.simulation = name;
                  }
                }));
  }

  /**
   * The simulation class that Gatling's command line names ({@code -s CLASS} or {@code --simulation
   * CLASS}, as {@code fusillade run} and the gatling-maven-plugin pass it), or null.
   *
   * @param command the JVM's command line, {@code sun.java.command}; null for none
   */
  static String simulationOfCommand(String command) {
    if (command == null) {
      return null;
    }
    String[] words = command.strip().split("\\s+");
    for (int i = 0; i + 1 < words.length; i++) {
      if (words[i].equals("-s") || words[i].equals("--simulation")) {
        return words[i + 1];
      }
    }
    return null;
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
  public static RunRecorder recorder(CoreComponents core) {
    RunPlan plan = RunPlan.current();
    return RunSlot.open(declared -> GatlingRun.open(declared, plan, core)).recorder;
  }

  /**
   * Closes {@code resource} when the run ends, before the run record is closed; resources close in
   * the reverse order of registration (a server registered in the simulation's constructor closes
   * after the protocol clients that use it). Returns the resource.
   */
  public static <T extends AutoCloseable> T closeAtEnd(T resource) {
    RunSlot.declare(d -> d.closeAtEnd.push(resource));
    return resource;
  }

  /**
   * Whether the run was asked to stop its load (a signal, an abort rule, a failed record, its
   * deadline): pacers that send their own arrivals ({@link FusilladeArrivals}) send no more, as
   * Gatling's injector starts no more users.
   */
  public static boolean loadStopped() {
    GatlingRun run = RunSlot.current();
    return run != null && run.loadStopped;
  }

  /** Notes that a Fusillade action started a request: Gatling's controller runs the load. */
  static void noteInjecting() {
    GatlingRun run = RunSlot.current();
    if (run != null && !run.injecting) {
      run.injecting = true;
    }
  }

  /**
   * Notes why the run failed: a Fusillade protocol's components could not open (Gatling then
   * crashes the run). The run record, if open, ends as {@code failed} with this reason; the first
   * reason noted wins.
   *
   * @param cause the error
   */
  static void failed(Throwable cause) {
    String reason = RunEnding.oneLine(cause);
    GatlingRun run = RunSlot.current();
    if (run != null) {
      run.failed(reason);
    } else {
      RunSlot.declare(
          d -> {
            if (d.crash == null) {
              d.crash = reason;
            }
          });
    }
  }

  /** The injector lag p99 above which the injector counts as saturated: the plan's. */
  static Duration lagThreshold() {
    return RunPlan.current().telemetry().lagThreshold();
  }
}
