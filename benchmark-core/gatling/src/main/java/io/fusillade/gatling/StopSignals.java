package io.fusillade.gatling;

import java.util.Locale;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * What SIGINT (Ctrl-C) and SIGTERM do to the JVM of a Fusillade run, once the run is open.
 *
 * <p>Left to itself, the JVM exits on either signal and runs its shutdown hooks: the run record is
 * closed as aborted, but Gatling never ends its run, so it writes no report. Here the first signal
 * asks for a graceful stop instead ({@code onFirst}: Gatling stops injecting, ends the run and
 * writes its report, and the record is closed as aborted); a repeated SIGTERM, and a SIGINT that
 * arrives with or after a SIGTERM, change nothing: {@code fusillade run} forwards a SIGTERM to this
 * JVM when it is interrupted itself, while the terminal sends Ctrl-C's SIGINT to every process of
 * the group, so one Ctrl-C may arrive twice, in either order; a SIGINT after a SIGTERM makes {@link
 * #first()} the SIGINT, so that the run says it was stopped by Ctrl-C whichever came first; and a
 * Ctrl-C that reached {@code fusillade run} alone is written on this JVM's standard input before
 * the SIGTERM that passes it on ({@link #relayed}), so that it is a SIGINT here too. A second
 * SIGINT exits at once ({@link Runtime#halt}, exit code 130): no hook runs, so the run record is
 * left as its last flush wrote it ({@code run.json} says {@code running}; readers show the run as
 * incomplete).
 *
 * <p>The handlers use {@code sun.misc.Signal} (module {@code jdk.unsupported}), the one way a Java
 * program can handle a signal: a "critical internal API" that JEP 260 keeps accessible without any
 * flag on Java 17 and later (25 included). A JVM started with SIGINT ignored (a background job,
 * {@code nohup}) keeps ignoring it: the JVM refuses to handle a signal ignored at its start.
 */
final class StopSignals {
  private static final Logger LOG = LoggerFactory.getLogger(StopSignals.class);

  /** A signal the run stops on, with its name and number (128 + number: the exit code). */
  record Received(String name, int number) {
    /** How the run's end is explained: {@code SIGINT (Ctrl-C)}, {@code SIGTERM}. */
    String describe() {
      return "SIG" + name + (name.equals("INT") ? " (Ctrl-C)" : "");
    }

    /** The shell's exit code of a process ended by this signal. */
    int exitCode() {
      return 128 + number;
    }
  }

  private static boolean installed; // guarded by StopSignals.class
  private static Received first; // guarded by StopSignals.class
  private static int interrupts; // guarded by StopSignals.class: SIGINTs received
  private static String relayed; // guarded by StopSignals.class: the parent's signal, or null

  private StopSignals() {}

  /**
   * Handles SIGINT and SIGTERM from now on, for the life of the JVM (once: later calls do nothing).
   *
   * @param onFirst what the first signal does, on the signal's own thread
   */
  static synchronized void install(Consumer<Received> onFirst) {
    if (installed) {
      return;
    }
    installed = true;
    for (String name : new String[] {"INT", "TERM"}) {
      try {
        Signal.handle(new Signal(name), signal -> received(signal, onFirst));
      } catch (IllegalArgumentException | UnsupportedOperationException e) {
        // not on this platform, or the JVM keeps the signal (-Xrs): its default stays
        LOG.debug("Cannot handle SIG{}: {}", name, e.toString());
      }
    }
  }

  /**
   * Sends this JVM a SIGTERM, as {@code kill -TERM} would: for a stop that must behave exactly as
   * that signal does (see {@link FusilladeRun}'s watch of the process that forked it).
   */
  static void raiseTerm() {
    Signal.raise(new Signal("TERM"));
  }

  /**
   * The process that forked this JVM received {@code name} and passes it on as SIGTERM ({@link
   * GatlingLauncher#stop}): a SIGTERM from now on, or one received already, counts as that signal.
   * A relayed SIGINT is not a second Ctrl-C: only SIGINTs this JVM receives count for that.
   *
   * @param name {@code INT} or {@code TERM}
   */
  static void relayed(String name) {
    synchronized (StopSignals.class) {
      relayed = name;
      if (name.equals("INT") && first != null && first.name().equals("TERM")) {
        first = interrupt();
      }
    }
  }

  private static Received interrupt() {
    return new Received("INT", signalNumber("INT", 2));
  }

  private static int signalNumber(String name, int usual) {
    try {
      return new Signal(name).getNumber();
    } catch (IllegalArgumentException e) {
      return usual;
    }
  }

  /** The first signal received, or null. */
  static synchronized Received first() {
    return first;
  }

  private static void received(Signal signal, Consumer<Received> onFirst) {
    Received now = new Received(signal.getName().toUpperCase(Locale.ROOT), signal.getNumber());
    synchronized (StopSignals.class) {
      if (now.name().equals("TERM") && "INT".equals(relayed)) {
        now = interrupt(); // fusillade run's Ctrl-C, passed on as SIGTERM
      } else if (now.name().equals("INT")) {
        interrupts++;
      }
      if (first != null) {
        if (now.name().equals("INT") && interrupts >= 2) {
          System.out.println();
          System.out.println(
              "Fusillade: a second Ctrl-C: exiting at once; the run record is left as its last"
                  + " flush wrote it (fusillade summary shows the run as incomplete).");
          System.out.flush();
          Runtime.getRuntime().halt(now.exitCode());
        }
        if (now.name().equals("INT") && first.name().equals("TERM")) {
          // The terminal's Ctrl-C, overtaken by the SIGTERM that fusillade run forwards when the
          // same Ctrl-C reaches it: the run was stopped by Ctrl-C (the stop itself is under way).
          first = now;
        }
        return; // a stop is under way
      }
      first = now;
    }
    onFirst.accept(now);
  }
}
