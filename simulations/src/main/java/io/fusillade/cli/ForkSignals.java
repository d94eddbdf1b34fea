package io.fusillade.cli;

import io.fusillade.gatling.GatlingLauncher;
import io.fusillade.local.LocalServers;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * What SIGINT (Ctrl-C) and SIGTERM do to {@code fusillade run} while its Gatling JVM runs.
 *
 * <ul>
 *   <li>The first signal stops the run: it is passed on to the Gatling JVM as SIGTERM (told which
 *       signal it was, so that a Ctrl-C is recorded as such: {@link GatlingLauncher#stop}), which
 *       stops the load, closes the record as {@code aborted} and writes Gatling's and Fusillade's
 *       reports (see {@code io.fusillade.gatling.FusilladeRun}); this process waits for it, then
 *       exits with the signal's code (130 for SIGINT, 143 for SIGTERM). A terminal's Ctrl-C reaches
 *       both processes (it signals the whole process group); a CI job's SIGTERM reaches this one
 *       only: either way the Gatling JVM stops.
 *   <li>A second signal exits at once: the Gatling JVM and its children are killed (SIGKILL), the
 *       embedded servers they leave are stopped ({@link LocalServers#stopOrphans}), and this
 *       process halts with the signal's code. The run record stays as its last flush wrote it
 *       ({@code run.json} says {@code running}): {@code fusillade summary} shows the run as
 *       incomplete.
 * </ul>
 *
 * <p>Signals are handled with {@code sun.misc.Signal} (module {@code jdk.unsupported}), which JEP
 * 260 keeps accessible on Java 17 and later without any flag; the previous handlers come back when
 * the run is over ({@link #close}). A process started with SIGINT ignored (a background job, {@code
 * nohup}) keeps ignoring it: the JVM does not handle a signal ignored at its start.
 */
final class ForkSignals implements AutoCloseable {
  /** How long the second signal gives the killed JVMs and the orphaned servers to go. */
  static final Duration AT_ONCE_GRACE = Duration.ofSeconds(2);

  /**
   * A signal received.
   *
   * @param name {@code INT} or {@code TERM}
   * @param number its number (2, 15)
   */
  record Received(String name, int number) {
    /** {@code SIGINT (Ctrl-C)}, {@code SIGTERM}. */
    String describe() {
      return "SIG" + name + (name.equals("INT") ? " (Ctrl-C)" : "");
    }

    /** The shell's exit code of a process ended by this signal: 128 + its number. */
    int exitCode() {
      return 128 + number;
    }
  }

  private final PrintWriter err;
  private final Supplier<Optional<Path>> record;
  private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();
  private Process child; // guarded by this
  private Received first; // guarded by this
  private int count; // guarded by this
  private boolean exiting; // guarded by this

  private ForkSignals(PrintWriter err, Supplier<Optional<Path>> record) {
    this.err = err;
    this.record = record;
  }

  /**
   * Handles SIGINT and SIGTERM until {@link #close}.
   *
   * @param err where what the signals do is said
   * @param record the run's record directory, once it exists
   */
  static ForkSignals install(PrintWriter err, Supplier<Optional<Path>> record) {
    ForkSignals signals = new ForkSignals(err, record);
    for (String name : List.of("INT", "TERM")) {
      try {
        Signal signal = new Signal(name);
        signals.previous.put(signal, Signal.handle(signal, signals::handle));
      } catch (IllegalArgumentException | UnsupportedOperationException e) {
        // the platform or the JVM (-Xrs) keeps this signal: its default stays
      }
    }
    return signals;
  }

  /** The Gatling JVM to stop on a signal; stopped at once when a signal came before it started. */
  synchronized void watch(Process process) {
    child = process;
    if (first != null) {
      GatlingLauncher.stop(process, first.name());
    }
  }

  /** The first signal received, if any. */
  synchronized Optional<Received> received() {
    return Optional.ofNullable(first);
  }

  /**
   * Waits for ever when a second signal is ending this process (its handler halts the JVM): the
   * caller must not report the killed run as if it had ended by itself.
   */
  void awaitExitAtOnce() throws InterruptedException {
    synchronized (this) {
      if (!exiting) {
        return;
      }
    }
    Thread.sleep(Long.MAX_VALUE);
  }

  /** Puts the previous handlers back. */
  @Override
  public void close() {
    previous.forEach(
        (signal, handler) -> {
          try {
            Signal.handle(signal, handler);
          } catch (IllegalArgumentException e) {
            // as at install
          }
        });
  }

  private void handle(Signal signal) {
    Received now = new Received(signal.getName().toUpperCase(Locale.ROOT), signal.getNumber());
    Process process;
    boolean second;
    synchronized (this) {
      count++;
      second = count > 1;
      if (first == null) {
        first = now;
      }
      exiting |= second;
      process = child;
    }
    if (!second) {
      err.println(
          "fusillade: "
              + now.describe()
              + ": stopping the run; the reports are written (Ctrl-C again to exit at once)");
      err.flush();
      if (process != null) {
        // SIGTERM, told which signal it stands for: the Gatling JVM stops its load (FusilladeRun)
        GatlingLauncher.stop(process, now.name());
      }
      return;
    }
    exitAtOnce(process, now);
  }

  private void exitAtOnce(Process process, Received signal) {
    err.println("fusillade: " + signal.describe() + " again: exiting at once");
    err.flush();
    if (process != null) {
      // Its children first (an embedded Kafka's nodes): once it is gone they are re-parented.
      List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
      tree.add(process.toHandle());
      tree.forEach(ProcessHandle::destroyForcibly);
      long deadline = System.nanoTime() + AT_ONCE_GRACE.toNanos();
      for (ProcessHandle p : tree) {
        try {
          p.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (Exception notYet) {
          // halt all the same
        }
      }
    }
    // PostgreSQL runs in its own session and outlives a killed JVM: stop it.
    List<Path> stopped = LocalServers.stopOrphans(AT_ONCE_GRACE);
    if (!stopped.isEmpty()) {
      err.println("fusillade: stopped the embedded servers of the run: " + stopped);
    }
    record
        .get()
        .ifPresent(
            directory ->
                err.println(
                    "fusillade: run record "
                        + directory
                        + " (as its last flush wrote it: fusillade summary shows it as"
                        + " incomplete)"));
    err.flush();
    Runtime.getRuntime().halt(signal.exitCode());
  }
}
