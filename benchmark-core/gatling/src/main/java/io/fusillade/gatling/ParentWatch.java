package io.fusillade.gatling;

import io.fusillade.record.RunRecorder;
import io.fusillade.record.RunStatus;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The Gatling JVM's watch of the process that forked it ({@link GatlingLauncher}: {@code fusillade
 * run}, a test), from the first instant of {@link GatlingMain}. When that process ends, however it
 * ends ({@code kill -9} included), nobody waits for this run any more and the servers it started
 * must not outlive it: the run record, if a run opened, is closed as aborted with that reason (a
 * reader sees how it ended; {@code fusillade report} writes its report), no run opens any more, and
 * the JVM halts at once, within {@value #CLOSE_MS} ms whatever holds it up, whatever it was doing
 * (starting its servers, loading Gatling, running the load, draining). Gatling's graceful stop and
 * the reports are not waited for: a topic run's drain alone takes seconds. Its own children (a
 * Kafka broker, an OpenSearch node, PostgreSQL) follow it the same way.
 *
 * <p>The parent is watched through this JVM's standard input, a pipe whose only writer is the
 * parent: the kernel closes it when the parent dies, and the read here sees its end. Not {@code
 * PR_SET_PDEATHSIG}: the kernel sends that when the parent's <em>thread</em> that forked ends, and
 * a JVM forks from any thread. Not a poll of the parent's pid either: the pipe's end comes at once,
 * and a pid can be another process's by the time it is read.
 *
 * <p>The same pipe carries one word from the parent: the signal it received and passes on as
 * SIGTERM ({@link GatlingLauncher#stop}), so that a Ctrl-C sent to {@code fusillade run} alone is
 * recorded as SIGINT, as one sent to the whole process group is ({@link StopSignals#relayed}).
 *
 * <p>Nothing here logs: the parent may die while the logging starts, on another thread.
 */
final class ParentWatch {
  /**
   * The exit code of this JVM when the process that forked it ended first: 128 + SIGHUP's number,
   * as for a process whose terminal went away.
   */
  static final int PARENT_GONE_EXIT = 129;

  /** How long the record gets to close after the parent's end before this JVM halts anyway. */
  static final long CLOSE_MS = 1_200;

  private static boolean gone; // guarded by ParentWatch.class
  private static RunRecorder run; // guarded by ParentWatch.class: the last run opened, or null

  private ParentWatch() {}

  /** Starts watching standard input; the caller's {@code main} goes on at once. */
  static void start() {
    long parent = parentPid();
    Thread watch =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))) {
                String line;
                while ((line = in.readLine()) != null) {
                  String word = line.strip();
                  if (word.equals("INT") || word.equals("TERM")) {
                    StopSignals.relayed(word);
                  }
                }
              } catch (IOException e) {
                // the pipe is gone all the same
              }
              parentGone(parent);
            },
            "fusillade-parent-watch");
    watch.setDaemon(true);
    watch.start();
  }

  /**
   * The parent's pid, for the message: this JVM's parent when the watch starts, its first instant
   * (init's, should the parent have died while this JVM started).
   */
  private static long parentPid() {
    return ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
  }

  /**
   * Notes the run just opened ({@link FusilladeRun}): what the parent's end closes.
   *
   * @throws io.fusillade.FusilladeException when the parent has ended: an orphan opens no run (this
   *     JVM is halting)
   */
  static synchronized void opened(RunRecorder recorder) {
    if (gone) {
      recorder.close(RunStatus.ABORTED, "the process that started this run had ended");
      throw new io.fusillade.FusilladeException(
          "the process that started this run is gone: no run is opened");
    }
    run = recorder;
  }

  /** Whether the parent has ended: no run may open any more. */
  static synchronized boolean gone() {
    return gone;
  }

  private static void parentGone(long parentPid) {
    Thread deadline =
        new Thread(
            () -> {
              try {
                Thread.sleep(CLOSE_MS);
              } catch (InterruptedException e) {
                // halt now
              }
              halt();
            },
            "fusillade-parent-gone");
    deadline.setDaemon(true);
    deadline.start();
    String reason = reason(parentPid);
    RunRecorder open;
    synchronized (ParentWatch.class) {
      gone = true;
      open = run;
    }
    if (open != null && open.status() == RunStatus.RUNNING) {
      open.close(RunStatus.ABORTED, reason);
      System.out.println(
          "Fusillade: "
              + reason
              + ": run record "
              + open.directory().toAbsolutePath()
              + " closed as aborted; 'fusillade report' writes its report.");
    } else {
      System.out.println("Fusillade: " + reason + ": exiting.");
    }
    System.out.flush();
    halt();
  }

  /**
   * Ends this JVM at once. One that dumps its classes at its end ({@link ClassArchive}, the first
   * run on a class path) is killed (SIGKILL) instead: a halt writes the dump too, which kept an
   * orphan and its servers alive 3 to 4 s after its parent's {@code kill -9}, for an archive that
   * only the parent would have kept (OrphanTest, 2026-12-03). With {@code kill(1)}, as {@code
   * io.fusillade.local.Signals} sends signals: the injector does not depend on that module.
   */
  private static void halt() {
    if (ClassArchive.dumpingAtExit()) {
      try {
        new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid()))
            .start()
            .waitFor(CLOSE_MS, TimeUnit.MILLISECONDS);
      } catch (IOException | RuntimeException e) {
        // no kill command: the halt below, dump and all
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    Runtime.getRuntime().halt(PARENT_GONE_EXIT);
  }

  /** The reason of a run whose forking process ended, in {@code run.json}. */
  static String reason(long parentPid) {
    return "stopped: the process that started it"
        + (parentPid > 0 ? " (pid " + parentPid + ")" : "")
        + " ended";
  }
}
