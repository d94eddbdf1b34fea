package io.fusillade.gatling;

import io.fusillade.abort.AbortRule;
import io.fusillade.abort.AbortWatch;
import io.fusillade.fault.Fault;
import io.fusillade.fault.FaultSchedule;
import io.fusillade.gatling.metrics.InfluxPush;
import io.fusillade.gatling.metrics.LiveMetrics;
import io.fusillade.health.InjectorLagMonitor;
import io.fusillade.plan.RunPlan;
import io.fusillade.plan.RunResult;
import io.fusillade.plan.RunResultFile;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import io.fusillade.record.RunStatus;
import io.fusillade.system.ServerScraper;
import io.fusillade.system.ServerTarget;
import io.fusillade.system.SystemSampler;
import io.fusillade.system.WatchedProcess;
import io.gatling.core.CoreComponents;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.runtime.BoxedUnit;

/**
 * The life of one Gatling run, from the moment the first Fusillade protocol builds its components
 * (just before injection starts) to its end: it opens the {@link RunRecorder} with what the
 * simulation declared ({@link RunDeclarations}) and what the {@link RunPlan} says, starts what
 * watches and steers the run beside it (the lag monitor, system metrics, live metrics, abort rules,
 * faults, signals), and at the end closes the protocols' clients, then the record, then has {@link
 * RunEnding} print the verdict and set the exit code. {@link RunSteering} stops it early.
 *
 * <p>How the run ended is in {@code run.json}: {@code completed}; {@code failed} when a Fusillade
 * protocol could not open, when Gatling crashed the run later and its error reached the main
 * thread, or when no request was sent; {@code aborted} when a signal, an abort rule or the JVM's
 * exit stopped it before Gatling ended it.
 */
final class GatlingRun {
  private static final Logger LOG = LoggerFactory.getLogger(GatlingRun.class);

  final RunPlan plan;
  final RunRecorder recorder;
  final RunDeclarations declared;

  // The steering state: written by RunSteering and the actions, read when the run ends.
  volatile Object controller; // Gatling's, to stop the run
  // Set by the first request a Fusillade action starts: Gatling's controller has started the run,
  // so it takes a stop (before that, a stop message would kill it and hang the run).
  volatile boolean injecting;
  volatile boolean loadStopped;
  private StopSignals.Received stoppedBy; // guarded by this
  private String abortedBy; // guarded by this: the broken abort rule
  private String crash; // guarded by this: why the run failed
  private FaultSchedule faults; // guarded by this
  private String pastDeadline; // guarded by this: why the deadline stopped the run, or null
  private boolean ended; // guarded by this

  private GatlingRun(RunPlan plan, RunRecorder recorder, RunDeclarations declared) {
    this.plan = plan;
    this.recorder = recorder;
    this.declared = declared;
    this.crash = declared.crash;
  }

  /**
   * Opens the run: its record, and everything that watches or steers it. A setting that cannot be
   * applied (a port already taken, a fault on a server the run did not start) closes the record as
   * failed and is thrown: Gatling then crashes the run with it.
   */
  /** The simulation class the command line names, or "simulation". */
  private static String commandSimulation() {
    String named = FusilladeRun.simulationOfCommand(System.getProperty("sun.java.command"));
    return named != null ? named : "simulation";
  }

  static GatlingRun open(RunDeclarations declared, RunPlan plan, CoreComponents core) {
    if (ParentWatch.gone()) {
      // this JVM is exiting (its parent is gone): an orphan opens no run record
      throw new io.fusillade.FusilladeException(
          "the process that started this run is gone: no run is opened");
    }
    String name =
        plan.outputs().simulationName() != null
            ? plan.outputs().simulationName()
            : declared.simulation != null ? declared.simulation : commandSimulation();
    // The injection profile's target rate, unless the simulation recorded one itself.
    declared.parameters.putAll(InjectionProfiles.parameters(core, declared.parameters));
    RunRecorder recorder =
        RunRecorder.open(
            RunOptions.of(name)
                .withBaseDirectory(plan.outputs().runsDirectory())
                .withParameters(declared.parameters));
    ParentWatch.opened(recorder);
    GatlingRun run = new GatlingRun(plan, recorder, declared);
    run.reportWhereTheRecordIs();
    try {
      run.startWatchers(name, core);
    } catch (RuntimeException e) {
      recorder.close(RunStatus.FAILED, e.getMessage());
      throw e;
    }
    List<EventExecutor> loops = new ArrayList<>();
    core.eventLoopGroup().forEach(loops::add);
    InjectorLagMonitor.install(
        recorder, loops, InjectorLagMonitor.DEFAULT_PERIOD, plan.telemetry().lagThreshold());
    declared.checks.forEach(recorder::check);
    run.installSystemSampler();
    Profiling.startIfAsked(recorder, plan.telemetry().jfr());
    core.actorSystem()
        .registerOnTermination(
            () -> {
              run.finish(false);
              return BoxedUnit.UNIT;
            });
    RunEnding.watchForCrash(run);
    recorder.onWriteFailure(reason -> RunSteering.stopOnWriteFailure(run, core, reason));
    // Stopped by a signal or Ctrl-C, Gatling never terminates its actor system: end the run here
    // (aborted), with its summary, before the recorder's own hook would close it silently.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> run.finish(true), "fusillade-run-abort"));
    // ... unless the signal comes while the load runs: then Gatling is asked to stop, so that it
    // ends the run and writes its report (see StopSignals).
    run.controller = core.controller();
    StopSignals.install(signal -> RunSteering.stopOnSignal(run, signal));
    RunSteering.stopAtDeadline(run);
    LOG.info("Fusillade run record: {}", recorder.directory().toAbsolutePath());
    return run;
  }

  /**
   * Tells the command line, if it waits for a result, where the record is: before anything runs.
   */
  private void reportWhereTheRecordIs() {
    if (plan.outputs().resultFile() != null) {
      RunResultFile.write(
          RunResult.running(recorder.directory().toAbsolutePath()), plan.outputs().resultFile());
    }
  }

  /** The live metrics, the progress, the abort rules, the scraped servers and the faults. */
  private void startWatchers(String name, CoreComponents core) {
    Map<String, Object> shown = new LinkedHashMap<>(declared.parameters);
    shown.put("simulation", name);
    // A port that cannot be listened on or a bad URL fails the run before it starts.
    LiveMetrics.start(recorder, shown, plan.live());
    InfluxPush.start(recorder, plan.live());
    if (plan.outputs().progressSeconds() != null) {
      recorder.listen(new ConsoleProgress(System.out, plan.outputs().progressSeconds()));
    }
    List<AbortRule> rules = new ArrayList<>(declared.abortRules);
    for (String line : plan.control().abortRules()) {
      rules.add(AbortRule.parse(line));
    }
    if (!rules.isEmpty()) {
      recorder.listen(new AbortWatch(rules, rule -> RunSteering.abortOnRule(this, rule)));
    }
    List<ServerTarget> servers = new ArrayList<>(declared.monitored);
    servers.addAll(ServerTarget.parseLines(String.join("\n", plan.telemetry().monitors())));
    ServerScraper.install(recorder, servers);
    List<io.fusillade.system.LogWatch> logs = new ArrayList<>();
    for (RunPlan.LogSource source : plan.telemetry().logs()) {
      java.nio.file.Path file = source.file();
      if (file.toString().equals(EMBEDDED_LOG)) {
        if (declared.embeddedLog == null) {
          throw new IllegalStateException(
              "monitor "
                  + source.name()
                  + ": logs: embedded counts the embedded PostgreSQL's log, and this run started"
                  + " none: give the server's log file instead");
        }
        file = declared.embeddedLog;
      }
      logs.add(io.fusillade.system.LogWatch.of(source.name(), file, source.patterns()));
    }
    io.fusillade.system.LogCounter.install(recorder, logs);
    recordStarvation();
    declared.directories.forEach(recorder::gauge);
    List<Fault> scheduled = scheduledFaults(declared, plan);
    if (!scheduled.isEmpty()) {
      recorder.parameter("faults", scheduled.stream().map(Fault::text).toList());
      FaultSchedule schedule = FaultSchedule.start(scheduled, declared.faultTargets, recorder);
      synchronized (this) {
        faults = schedule;
      }
    }
  }

  /** A log source's file naming the log of the server the run started. */
  static final String EMBEDDED_LOG = "embedded";

  /**
   * A ladder's run whose server the command line starved of CPU for the whole run: recorded as a
   * parameter and as a fault from the run's start to its end, so that the report draws its band and
   * the tables tell the starved runs.
   */
  private void recordStarvation() {
    if (plan.ladder() == null || plan.ladder().starved() == null) {
      return;
    }
    String label = "starve postgres " + plan.ladder().starved();
    recorder.parameter("starved", plan.ladder().starved());
    recorder.event(io.fusillade.fault.FaultSchedule.START, label, "postgres");
    recorder.onFinish(
        () -> recorder.event(io.fusillade.fault.FaultSchedule.END, label, "for the whole run"));
  }

  /**
   * The faults the simulation declared and the plan's, each once (a workload's come both ways under
   * {@code fusillade run}).
   */
  static List<Fault> scheduledFaults(RunDeclarations declared, RunPlan plan) {
    Map<String, Fault> byText = new LinkedHashMap<>();
    declared.faults.forEach(f -> byText.putIfAbsent(f.text(), f));
    for (String line : plan.control().faults()) {
      Fault f = Fault.parse(line);
      byText.putIfAbsent(f.text(), f);
    }
    return List.copyOf(byText.values());
  }

  private void installSystemSampler() {
    List<WatchedProcess> processes = new ArrayList<>(declared.watched);
    for (String name : plan.telemetry().processes()) {
      processes.add(WatchedProcess.ofName(name));
    }
    SystemSampler.Options defaults = SystemSampler.Options.defaults();
    SystemSampler.install(
        recorder,
        new SystemSampler.Options(
            defaults.procRoot(),
            defaults.sysBlock(),
            processes,
            plan.telemetry().stealThreshold()));
  }

  /** Notes why the run failed; the first reason noted wins. */
  synchronized void failed(String reason) {
    if (crash == null) {
      crash = reason;
    }
  }

  /** Notes what stopped the run: a signal. */
  synchronized void stoppingOn(StopSignals.Received signal) {
    stoppedBy = signal;
  }

  /**
   * Notes that an abort rule broke, unless the run is ending already.
   *
   * @return whether this rule is the one that stops the run
   */
  synchronized boolean abortingOn(String rule) {
    if (ended || stoppedBy != null || abortedBy != null) {
      return false;
    }
    abortedBy = rule;
    return true;
  }

  /**
   * Notes that the run passed its deadline, unless it is ending already.
   *
   * @return whether the deadline is what stops the run
   */
  synchronized boolean passingDeadline(String reason) {
    if (ended || stoppedBy != null || abortedBy != null) {
      return false;
    }
    pastDeadline = reason;
    return true;
  }

  /**
   * Ends the run: stops the faults, closes the clients and the record, and has the verdict printed
   * when the JVM exits. Once: a second call (Gatling's termination after the exit hook, or the
   * reverse) does nothing.
   *
   * @param aborted true from the shutdown hook: the JVM is stopping before Gatling ended the run
   */
  void finish(boolean aborted) {
    StopSignals.Received signal;
    String rule;
    String failure;
    String deadline;
    FaultSchedule schedule;
    synchronized (this) {
      if (ended) {
        return;
      }
      ended = true;
      deadline = pastDeadline;
      failure = deadline != null ? deadline : crash;
      // the signal as StopSignals knows it now: a Ctrl-C overtaken by the CLI's SIGTERM is a Ctrl-C
      signal = stoppedBy != null && StopSignals.first() != null ? StopSignals.first() : stoppedBy;
      rule = abortedBy;
      schedule = faults;
    }
    List<AutoCloseable> resources;
    synchronized (RunSlot.class) {
      resources = new ArrayList<>(declared.closeAtEnd);
      declared.closeAtEnd.clear();
    }
    RunSlot.end(this);
    if (schedule != null) {
      // before the record closes (the faults' ends are events) and the servers stop (a paused one
      // is resumed so that it can)
      schedule.close();
    }
    if (rule != null && !aborted) {
      // As on a signal: close the record at the stop, then the clients the users still hold.
      recorder.close(RunStatus.ABORTED, RunEnding.abortedReason(rule));
      closeAll(resources);
      RunEnding.atExit(this, RunEnding.Stop.rule(rule));
      return;
    }
    if (signal != null && !aborted) {
      // Gatling stopped the run on a signal: its users may still be sending, so close the record
      // first (it ends at the stop, not with errors from closed pools), then the clients.
      recorder.close(RunStatus.ABORTED, RunEnding.stoppedReason(signal));
      closeAll(resources);
      RunEnding.atExit(this, RunEnding.Stop.signal(signal));
      return;
    }
    if (aborted) {
      // Virtual users may still be sending: close the record before the clients they use, so that
      // it ends at the signal rather than with errors from closed pools.
      if (deadline != null) {
        recorder.close(RunStatus.FAILED, failure);
      } else {
        recorder.close(
            RunStatus.ABORTED,
            rule != null ? RunEnding.abortedReason(rule) : RunRecorder.ABORTED_BY_SHUTDOWN);
      }
      closeAll(resources);
      RunEnding.now(this, signal != null ? RunEnding.Stop.signal(signal) : RunEnding.Stop.exit());
      return;
    }
    closeAll(resources);
    if (failure != null) {
      recorder.close(RunStatus.FAILED, failure);
    } else {
      recorder.close();
    }
    RunEnding.atExit(this, null);
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
}
