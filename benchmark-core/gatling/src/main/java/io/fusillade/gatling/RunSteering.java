package io.fusillade.gatling;

import io.fusillade.plan.ExitCode;
import io.fusillade.plan.RunPlan;
import io.gatling.core.CoreComponents;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a run before its end: on SIGINT or SIGTERM, on a broken abort rule, when the record can no
 * longer be written, when the process that started the run is gone, and at the run's deadline. Each
 * asks Gatling's controller to stop the run as its {@code stopLoadGenerator} action does, so that
 * Gatling ends the run and both reports are written; where Gatling cannot take the stop (the run
 * has not started injecting), the JVM exits and its shutdown hooks close the record.
 */
final class RunSteering {
  private static final Logger LOG = LoggerFactory.getLogger(RunSteering.class);

  private RunSteering() {}

  /**
   * The first SIGINT or SIGTERM ({@link StopSignals}). While the load runs, asks Gatling to stop:
   * it ends the run (the record closes as aborted) and writes its report, and the JVM exits with
   * the signal's code. Before the first request, and after the run ended, the JVM exits as it would
   * without Fusillade: the shutdown hooks close the record as aborted if it is still open, and
   * print the summary.
   */
  static void stopOnSignal(GatlingRun run, StopSignals.Received signal) {
    Object gatling = run.injecting ? run.controller : null;
    if (gatling != null) {
      run.stoppingOn(signal);
      if (stopLoad(run, gatling, RunEnding.stoppedReason(signal))) {
        System.out.println(
            "Fusillade: "
                + signal.describe()
                + ": stopping the load; the reports follow (Ctrl-C again to exit at once).");
        return;
      }
      run.stoppingOn(null);
    }
    System.exit(signal.exitCode());
  }

  /**
   * An abort rule broke ({@code AbortWatch}, on the recorder's flushing thread, under its lock):
   * from another thread, mark the record and ask Gatling to stop as on a signal. When Gatling
   * cannot take the stop (the run has not started injecting), the JVM exits: the shutdown hook
   * closes the record as aborted.
   */
  static void abortOnRule(GatlingRun run, String rule) {
    Thread stopper =
        new Thread(
            () -> {
              if (!run.abortingOn(rule)) {
                return; // ending already
              }
              Object gatling = run.injecting ? run.controller : null;
              run.recorder.event(FusilladeRun.ABORT_EVENT, "run", rule);
              System.out.println(
                  "Fusillade: abort rule broken: "
                      + rule
                      + ": stopping the load; the reports follow.");
              if (gatling == null || !stopLoad(run, gatling, RunEnding.abortedReason(rule))) {
                System.exit(RunEnding.ABORTED_EXIT);
              }
            },
            "fusillade-abort");
    stopper.setDaemon(true);
    stopper.start();
  }

  /**
   * The record can no longer be written (a full disk): the run has nothing to measure with, so
   * Gatling stops injecting at once and ends the run as it ends any other (its report written), and
   * the record closes as {@code failed} with the recorder's reason.
   */
  static void stopOnWriteFailure(GatlingRun run, CoreComponents core, String reason) {
    run.failed(reason);
    stopLoad(run, core.controller(), reason);
  }

  /**
   * Stops the run at its deadline ({@link RunPlan.Control#deadline}), whatever it waits for: a
   * drain that never ends, a server that never answers, a rate the injector cannot reach. Gatling
   * is asked to stop as on a signal, the record closes as failed with the reason, both reports are
   * written; should the JVM still be there a minute later (Gatling stuck), it halts, and the record
   * is left as its last flush wrote it.
   */
  static void stopAtDeadline(GatlingRun run) {
    Duration deadline = run.plan.control().deadline();
    if (deadline == null) {
      return;
    }
    Thread watch =
        new Thread(
            () -> {
              try {
                Thread.sleep(deadline.toMillis());
              } catch (InterruptedException e) {
                return;
              }
              String reason =
                  "the run did not end by its deadline of "
                      + deadline.toSeconds()
                      + " s (its duration, drain and margin)";
              if (RunSlot.current() != run || !run.passingDeadline(reason)) {
                return; // over, or stopping, already
              }
              run.recorder.event("run-deadline", "run", reason);
              System.out.println("Fusillade: " + reason + ": stopping it; the reports follow.");
              System.out.flush();
              Object gatling = run.injecting ? run.controller : null;
              if (gatling == null || !stopLoad(run, gatling, reason)) {
                System.exit(ExitCode.FAILED.code());
              }
              try {
                Thread.sleep(LAST_RESORT.toMillis());
              } catch (InterruptedException e) {
                return;
              }
              Runtime.getRuntime().halt(ExitCode.FAILED.code());
            },
            "fusillade-deadline");
    watch.setDaemon(true);
    watch.start();
  }

  /** How long after its deadline a run that did not stop is halted. */
  private static final Duration LAST_RESORT = Duration.ofSeconds(60);

  /**
   * Sends Gatling's controller the message of its {@code stopLoadGenerator} action. The message
   * type is internal to Gatling (Scala, {@code private[gatling]}): reached by reflection, so that a
   * Gatling that changed it makes the stop fall back to the JVM's exit rather than break the build.
   *
   * @return whether the message was sent
   */
  static boolean stopLoad(GatlingRun run, Object controller, String reason) {
    try {
      ClassLoader loader = CoreComponents.class.getClassLoader();
      Class<?> type =
          Class.forName(
              "io.gatling.core.controller.Controller$Command$StopLoadGenerator", true, loader);
      Object command = type.getConstructor(String.class, boolean.class).newInstance(reason, false);
      Class.forName("io.gatling.core.actor.ActorRef", true, loader)
          .getMethod("$bang", Object.class)
          .invoke(controller, command);
      run.loadStopped = true;
      return true;
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      LOG.warn("Could not ask Gatling to stop the run ({}): exiting instead", e.toString());
      return false;
    }
  }
}
