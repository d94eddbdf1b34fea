package io.fusillade.fault;

import io.fusillade.record.RunEvents;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a run's {@link Fault}s at their times and writes each to the run record as two
 * events: {@value #START} when it begins and {@value #END} when it is over (a pause resumed, a
 * killed server started again, a command finished), both with the fault's {@link Fault#label()} as
 * their target. The end's detail says how it went: {@code resumed}, {@code exit 0: <output>}, or
 * {@code failed: <reason>}: a fault that cannot be done is recorded, never a reason to stop the
 * load.
 *
 * <p>Each fault runs on a thread of its own, so a restart that takes seconds or a slow command does
 * not delay the next fault. {@link #close()} (at the end of the run, before the servers stop)
 * cancels what has not started, resumes what is paused and stops commands still running.
 */
public final class FaultSchedule implements AutoCloseable {
  /** The kind of the event written when a fault begins. */
  public static final String START = "fault-start";

  /** The kind of the event written when a fault is over. */
  public static final String END = "fault-end";

  /** The most characters of a command's output kept in its end event (the last ones). */
  static final int OUTPUT_KEPT = 1_000;

  private static final Logger LOG = LoggerFactory.getLogger(FaultSchedule.class);

  private final RunEvents events;
  private final Map<String, FaultTarget> targets;
  private final ScheduledExecutorService threads;
  private final List<ScheduledFuture<?>> pending = new ArrayList<>();
  private final List<Fault> undoPending = new ArrayList<>(); // begun, not yet undone; guarded
  private final Set<Process> commands = new HashSet<>(); // guarded by this
  private final Map<Fault, AutoCloseable> starvations = new java.util.HashMap<>(); // guarded
  private boolean closed; // guarded by this

  private FaultSchedule(Map<String, FaultTarget> targets, RunEvents events, int threads) {
    this.targets = Map.copyOf(targets);
    this.events = events;
    AtomicInteger n = new AtomicInteger();
    this.threads =
        Executors.newScheduledThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "fusillade-fault-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Checks that every fault names a server that can take it: a registered kind, a node it has.
   *
   * @param faults the faults
   * @param targets the local servers by kind
   * @throws IllegalArgumentException naming the first fault that cannot be done and what can
   */
  public static void validate(List<Fault> faults, Map<String, FaultTarget> targets) {
    Map<String, Integer> nodes = new TreeMap<>();
    targets.forEach((kind, target) -> nodes.put(kind, target.nodes()));
    validateNodes(faults, nodes);
  }

  /**
   * Checks that every fault names a server of {@code nodes}: before a run starts its servers, from
   * what it will start ({@code fusillade run}).
   *
   * @param faults the faults
   * @param nodes the local servers' kinds and their numbers of nodes
   * @throws IllegalArgumentException naming the first fault that cannot be done and what can
   */
  public static void validateNodes(List<Fault> faults, Map<String, Integer> nodes) {
    for (Fault fault : faults) {
      if (fault.action() == Fault.Action.RUN) {
        continue;
      }
      Integer count = nodes.get(fault.target());
      if (count == null) {
        throw new IllegalArgumentException(
            "fault '"
                + fault.text()
                + "': the run has no local '"
                + fault.target()
                + "' server"
                + (nodes.isEmpty()
                    ? " (it has none: for an external system schedule a command, 'at 30s"
                        + " run: ssh db3 sudo systemctl stop postgresql')"
                    : "; it has " + describe(nodes)));
      }
      if (fault.node() > count) {
        throw new IllegalArgumentException(
            "fault '"
                + fault.text()
                + "': the local "
                + fault.target()
                + " has "
                + count
                + (count == 1 ? " node" : " nodes, 1 to " + count));
      }
    }
  }

  private static String describe(Map<String, Integer> nodes) {
    List<String> kinds = new ArrayList<>();
    new TreeMap<>(nodes).forEach((kind, n) -> kinds.add(kind + " 1" + (n > 1 ? ".." + n : "")));
    return String.join(", ", kinds);
  }

  /**
   * Validates the faults and schedules them from now.
   *
   * @param faults the faults; none gives a schedule that does nothing
   * @param targets the run's local servers by kind ({@code broker}, {@code postgres})
   * @param events where the start and end of each fault go (the run recorder)
   * @return the schedule, to close when the run ends
   * @throws IllegalArgumentException as {@link #validate} does
   */
  public static FaultSchedule start(
      List<Fault> faults, Map<String, FaultTarget> targets, RunEvents events) {
    validate(faults, targets);
    FaultSchedule schedule = new FaultSchedule(targets, events, Math.max(1, faults.size()));
    for (Fault fault : faults) {
      schedule.schedule(fault);
    }
    return schedule;
  }

  private synchronized void schedule(Fault fault) {
    pending.add(threads.schedule(() -> begin(fault), fault.at().toMillis(), TimeUnit.MILLISECONDS));
  }

  private void begin(Fault fault) {
    synchronized (this) {
      if (closed) {
        return;
      }
    }
    events.event(START, fault.label(), fault.action() == Fault.Action.RUN ? "" : fault.server());
    System.out.println("Fusillade: fault: " + fault.label());
    System.out.flush();
    try {
      switch (fault.action()) {
        case RUN -> end(fault, runCommand(fault.command()));
        case RESTART -> {
          target(fault).restart(fault.node());
          end(fault, "started again");
        }
        case KILL -> {
          target(fault).kill(fault.node());
          if (fault.undoneAfter().isEmpty()) {
            end(fault, "killed");
          } else {
            undoLater(fault, () -> target(fault).restart(fault.node()), "killed, started again");
          }
        }
        case PAUSE -> {
          target(fault).pause(fault.node());
          undoLater(fault, () -> target(fault).resume(fault.node()), "paused, resumed");
        }
        case STARVE -> {
          AutoCloseable starved = target(fault).starve(fault.node(), fault.starve());
          synchronized (this) {
            starvations.put(fault, starved);
          }
          System.out.println("Fusillade: " + fault.label() + ": " + starved);
          if (fault.undoneAfter().isPresent()) {
            // said after the undo: the starvation's toString then has what it cost (throttling)
            undoLater(fault, () -> unstarve(fault), () -> "starved: " + starved + ", then not");
          } else {
            synchronized (this) {
              undoPending.add(fault); // to the run's end: close() gives the CPU back
            }
          }
        }
        case DELAY -> {
          target(fault).delay(fault.node(), fault.delay());
          undoLater(
              fault,
              () -> target(fault).delay(fault.node(), java.time.Duration.ZERO),
              "delayed " + fault.delay().toMillis() + " ms, then not");
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("Fault '{}' failed", fault.label(), e);
      end(fault, "failed: " + oneLine(e.getMessage()));
    }
  }

  private void undoLater(Fault fault, Runnable undo, String done) {
    undoLater(fault, undo, () -> done);
  }

  private synchronized void undoLater(
      Fault fault, Runnable undo, java.util.function.Supplier<String> done) {
    undoPending.add(fault); // close() undoes a pause the run's end cut short
    if (closed) {
      return;
    }
    Runnable task =
        () -> {
          synchronized (this) {
            if (!undoPending.remove(fault)) {
              return; // close() took it
            }
          }
          try {
            undo.run();
            end(fault, done.get());
          } catch (RuntimeException e) {
            LOG.warn("Undoing fault '{}' failed", fault.label(), e);
            end(fault, "failed to undo: " + oneLine(e.getMessage()));
          }
        };
    pending.add(threads.schedule(task, fault.duration().toMillis(), TimeUnit.MILLISECONDS));
  }

  /** Gives a starved server its CPU back. */
  private void unstarve(Fault fault) {
    AutoCloseable starved;
    synchronized (this) {
      starved = starvations.remove(fault);
    }
    if (starved == null) {
      return;
    }
    try {
      starved.close();
    } catch (Exception e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private void end(Fault fault, String detail) {
    events.event(END, fault.label(), detail);
  }

  private FaultTarget target(Fault fault) {
    return targets.get(fault.target());
  }

  /** Runs {@code sh -c command}; returns {@code exit N: <last output>}. */
  private String runCommand(String command) {
    Process process;
    try {
      process = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true).start();
    } catch (IOException e) {
      return "failed: cannot start sh: " + oneLine(e.getMessage());
    }
    synchronized (this) {
      if (closed) {
        process.destroyForcibly();
        return "failed: the run ended";
      }
      commands.add(process);
    }
    try (InputStream out = process.getInputStream()) {
      String output = tail(out);
      int exit = process.waitFor();
      return "exit " + exit + (output.isEmpty() ? "" : ": " + output);
    } catch (IOException e) {
      return "failed: " + oneLine(e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      return "failed: the run ended before the command did";
    } finally {
      synchronized (this) {
        commands.remove(process);
      }
    }
  }

  /** The output's last {@value #OUTPUT_KEPT} characters, on one line. */
  private static String tail(InputStream in) throws IOException {
    StringBuilder kept = new StringBuilder();
    byte[] buffer = new byte[8192];
    for (int n; (n = in.read(buffer)) >= 0; ) {
      kept.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
      if (kept.length() > 4 * OUTPUT_KEPT) {
        kept.delete(0, kept.length() - OUTPUT_KEPT);
      }
    }
    String line = oneLine(kept.toString());
    return line.length() <= OUTPUT_KEPT ? line : "…" + line.substring(line.length() - OUTPUT_KEPT);
  }

  private static String oneLine(String text) {
    return text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " | ");
  }

  /**
   * Ends the schedule: faults not begun are dropped, paused servers resumed (so that they can stop
   * cleanly), running commands stopped. Waits up to {@code grace} for faults under way.
   */
  public void close(Duration grace) {
    List<Fault> cutShort;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      pending.forEach(f -> f.cancel(false));
      commands.forEach(Process::destroy);
      cutShort = new ArrayList<>(undoPending);
      undoPending.clear();
    }
    // A fault under way (a broker's restart) ends first: interrupted, it would leave its server
    // half started and its end unrecorded.
    threads.shutdown();
    try {
      if (!threads.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        threads.shutdownNow();
        threads.awaitTermination(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      threads.shutdownNow();
      Thread.currentThread().interrupt();
    }
    for (Fault fault : cutShort) {
      if (fault.action() == Fault.Action.KILL) {
        end(fault, "killed; the run ended before its restart");
        continue;
      }
      if (fault.action() == Fault.Action.STARVE) {
        try {
          unstarve(fault);
          end(fault, "starved to the run's end, then not");
        } catch (RuntimeException e) {
          LOG.warn("Could not give {} its CPU back at the end of the run", fault.server(), e);
        }
        continue;
      }
      if (fault.action() == Fault.Action.DELAY) {
        target(fault).delay(fault.node(), Duration.ZERO);
        end(fault, "delayed; the run ended before its end");
        continue;
      }
      try {
        target(fault).resume(fault.node()); // a frozen server could not stop cleanly
        end(fault, "paused; resumed when the run ended");
      } catch (RuntimeException e) {
        LOG.warn("Could not resume {} at the end of the run", fault.server(), e);
      }
    }
  }

  /** Ends the schedule, giving a fault under way up to {@value #GRACE_SECONDS} s to end. */
  @Override
  public void close() {
    close(Duration.ofSeconds(GRACE_SECONDS));
  }

  /** How long the run's end waits for a fault under way, such as a restart. */
  static final int GRACE_SECONDS = 60;
}
