package io.fusillade.gatling;

import io.fusillade.plan.ExitCode;
import io.fusillade.plan.RunResult;
import io.fusillade.plan.RunResultFile;
import io.fusillade.record.CheckVerdict;
import io.fusillade.record.RunAnalysis;
import io.fusillade.record.RunStatus;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The verdict of a run and the JVM's exit code, once its record is closed: the summary and the
 * checks come from the {@link RunAnalysis} found on the class path with {@link ServiceLoader} (the
 * {@code reports} module provides it; this module does not depend on it), printed when the JVM
 * exits, after Gatling's own report, where they are seen.
 *
 * <p>Two audiences: under {@code fusillade run} (the plan names a result file) the verdict and the
 * exit code of the one table ({@link ExitCode}) go into the {@link RunResult} and the command line
 * prints the one exit line; under {@code mvn gatling:test} the JVM ends like Gatling does for its
 * own failed assertions, so that the build fails: exit code {@value #CHECKS_FAILED_EXIT} when a
 * check failed, {@value #RUN_FAILED_EXIT} when the run failed, {@value #ABORTED_EXIT} when an abort
 * rule stopped it, the signal's when one did, and a line says so, unless {@code
 * -Dfusillade.checks.failBuild=false} makes it a warning.
 */
final class RunEnding {
  private static final Logger LOG = LoggerFactory.getLogger(RunEnding.class);

  /** The JVM's exit code under Maven when a check failed: Gatling's for failed assertions. */
  static final int CHECKS_FAILED_EXIT = 2;

  /** The JVM's exit code under Maven when the run failed: Gatling's crash code. */
  static final int RUN_FAILED_EXIT = 1;

  /** The JVM's exit code when an abort rule stopped the run. */
  static final int ABORTED_EXIT = ExitCode.ABORTED.code();

  /** How long the exit code waits for the JVM's other shutdown hooks before it is set. */
  private static final long OTHER_HOOKS_WAIT_MS = 5_000;

  private RunEnding() {}

  /**
   * What stopped a run before its end: a signal, a broken abort rule, or the JVM's exit (a kill,
   * {@code System.exit}).
   */
  record Stop(StopSignals.Received signal, String rule) {
    static Stop signal(StopSignals.Received signal) {
      return new Stop(signal, null);
    }

    static Stop rule(String rule) {
      return new Stop(null, rule);
    }

    static Stop exit() {
      return new Stop(null, null);
    }

    String describe() {
      if (signal != null) {
        return signal.describe();
      }
      return rule != null ? "its abort rule: " + rule : "the JVM's exit";
    }
  }

  /** The reason of a run stopped by a broken abort rule, in {@code run.json}. */
  static String abortedReason(String rule) {
    return "stopped by its abort rule: " + rule;
  }

  /** The reason of a run stopped by {@code signal}, in {@code run.json}. */
  static String stoppedReason(StopSignals.Received signal) {
    return "stopped by " + signal.describe();
  }

  /**
   * Prints the verdict when the JVM exits (Gatling writes its HTML report in between), writes the
   * result, and sets the exit code.
   *
   * @param stop what stopped the run before its end, or null when it ended by itself
   */
  static void atExit(GatlingRun run, Stop stop) {
    Thread printer = new Thread(() -> end(run, stop, true), "fusillade-summary");
    try {
      Runtime.getRuntime().addShutdownHook(printer);
    } catch (IllegalStateException alreadyExiting) {
      printer.run();
    }
  }

  /**
   * Prints the verdict and writes the result now, from a shutdown hook of a JVM that is exiting
   * already: its exit code is the one it exits with.
   */
  static void now(GatlingRun run, Stop stop) {
    end(run, stop, false);
  }

  private static void end(GatlingRun run, Stop stop, boolean setExitCode) {
    List<CheckVerdict> verdicts =
        printSummary(run.recorder.directory().toAbsolutePath(), System.out);
    RunStatus status = run.recorder.status();
    ExitCode code = commandExitCode(status, verdicts, stop);
    Path resultFile = run.plan.outputs().resultFile();
    if (resultFile != null) {
      writeResult(run, status, verdicts, stop, code, resultFile);
      if (setExitCode) {
        exitWith(code.code());
      }
      return;
    }
    if (setExitCode) {
      mavenExit(run, status, verdicts, stop);
    }
  }

  private static void writeResult(
      GatlingRun run,
      RunStatus status,
      List<CheckVerdict> verdicts,
      Stop stop,
      ExitCode code,
      Path file) {
    try {
      RunResultFile.write(
          new RunResult(
              io.fusillade.plan.RunPlan.VERSION,
              true,
              run.recorder.directory().toAbsolutePath(),
              status.jsonName(),
              run.recorder.statusReason(),
              stop == null ? null : stop.describe(),
              verdicts,
              code.code()),
          file);
    } catch (RuntimeException e) {
      // the command line then says the run ended without a result, with this JVM's exit code
      LOG.warn("Could not write the run's result: {}", e.getMessage());
    }
  }

  /** The exit code of the command line's one table. */
  static ExitCode commandExitCode(RunStatus status, List<CheckVerdict> verdicts, Stop stop) {
    if (stop != null && stop.signal() != null) {
      return ExitCode.of(stop.signal().exitCode());
    }
    if (stop != null && stop.rule() != null) {
      return ExitCode.ABORTED;
    }
    if (status != RunStatus.COMPLETED) {
      return ExitCode.FAILED;
    }
    return verdicts.stream().allMatch(CheckVerdict::passed) ? ExitCode.OK : ExitCode.CHECK_FAILED;
  }

  /** Under Maven: the code Gatling's conventions give, and a line that says why. */
  private static void mavenExit(
      GatlingRun run, RunStatus status, List<CheckVerdict> verdicts, Stop stop) {
    boolean failBuild = run.plan.outputs().failBuild();
    boolean passed = verdicts.stream().allMatch(CheckVerdict::passed);
    if (stop != null && stop.signal() != null) {
      System.out.println(
          "Fusillade: exit code "
              + stop.signal().exitCode()
              + " (the run was stopped by "
              + stop.signal().describe()
              + ").");
      exitWith(stop.signal().exitCode());
      return;
    }
    int exit =
        stop != null && stop.rule() != null
            ? (failBuild ? ABORTED_EXIT : 0)
            : exitCode(status, passed, failBuild);
    String why =
        stop != null && stop.rule() != null
            ? "the run was " + abortedReason(stop.rule())
            : exit == CHECKS_FAILED_EXIT || (status == RunStatus.COMPLETED && !passed)
                ? "a check failed"
                : "the run " + status.jsonName();
    if (exit != 0) {
      System.out.println(
          "Fusillade: exit code "
              + exit
              + " ("
              + why
              + "); -D"
              + io.fusillade.plan.PlanProperties.FAIL_BUILD
              + "=false makes it a warning.");
      exitWith(exit);
    } else if (!passed || status != RunStatus.COMPLETED || stop != null) {
      System.out.println(
          "WARNING: "
              + (why.equals("a check failed") ? "the run did not pass its checks" : why)
              + "; -D"
              + io.fusillade.plan.PlanProperties.FAIL_BUILD
              + "=false keeps the exit code at Gatling's.");
    }
  }

  /**
   * The exit code the JVM must end with after a run under Maven, or 0 to leave Gatling's.
   *
   * @param status how the run ended
   * @param passed whether every check passed (false as well when the run did not complete)
   * @param failBuild {@code fusillade.checks.failBuild}
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
   * Gatling ends a crashed run (closing it as completed, when the crash did not come from a
   * Fusillade protocol) and then rethrows the error from its main method. With Gatling's own
   * launcher the error then reaches the main thread's uncaught-exception handler, before the
   * shutdown hooks run: mark the run failed there. (The gatling-maven-plugin's launcher catches the
   * error itself and exits with -1: the exit code fails the build all the same.)
   */
  static void watchForCrash(GatlingRun run) {
    Thread main = Thread.currentThread();
    if (!main.getName().equals("main")) {
      return; // Gatling builds its protocols on its main thread; elsewhere, leave the handler alone
    }
    Thread.UncaughtExceptionHandler previous = main.getUncaughtExceptionHandler();
    main.setUncaughtExceptionHandler(
        (thread, error) -> {
          run.recorder.failAfterClose(oneLine(error));
          previous.uncaughtException(thread, error);
        });
  }

  /** An error's message in one line: the first line of its innermost message. */
  static String oneLine(Throwable cause) {
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
        return ServiceLoader.load(RunAnalysis.class, RunEnding.class.getClassLoader()).findFirst();
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

  private static List<CheckVerdict> printSummary(Path directory, PrintStream out) {
    return printSummary(directory, Analysis.FOUND, out);
  }

  /**
   * With a run analysis: writes Fusillade's report of the run into its directory ({@code
   * report/index.html}, {@code summary.json}, {@code junit.xml}) and prints its table and its
   * checks. Either way, prints where the record is.
   *
   * @return the checks' verdicts; none without an analysis (nothing was checked)
   */
  static List<CheckVerdict> printSummary(
      Path directory, Optional<RunAnalysis> analysis, PrintStream out) {
    out.println();
    List<CheckVerdict> verdicts = List.of();
    if (analysis.isPresent()) {
      try {
        verdicts = analysis.get().finish(directory, out);
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
    return verdicts;
  }
}
