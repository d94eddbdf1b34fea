package io.fusillade.fault;

import io.fusillade.record.SettingValues;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fault scheduled during a run, written as a sentence:
 *
 * <pre>
 * at 30s pause broker 2 for 10s      SIGSTOP of a local server's processes, SIGCONT 10 s later
 * at 60s kill broker 1               SIGKILL (PostgreSQL: an immediate stop), for good
 * at 60s kill postgres for 5s        ... and started again 5 s later
 * at 90s restart broker 1            started again after a kill (does nothing if it runs)
 * at 40s delay postgres by 50ms for 10s
 *                                     each answer of a local server 50 ms later (a delay proxy)
 * at 30s starve postgres cpu 1 burners 1 for 60s
 *                                    the server held to 1 CPU shared with 1 busy loop (a quota or
 *                                    taskset, see CpuStarvation); without 'for', to the run's end
 * at 20s run: ssh db3 sudo systemctl stop postgresql
 *                                    a command, for systems Fusillade did not start
 * </pre>
 *
 * <p>Times count from the start of the run. A local server is named by its kind and its node,
 * counted from 1 ({@code broker 2}; {@code postgres} alone is node 1); {@link FaultTargets} knows
 * which ones the run started. The label ({@code pause broker 2 for 10s}, the text without its time)
 * names the fault in the run record, the report's bands and the checks ({@code recovery < 10s after
 * "kill broker 1"}).
 *
 * @param text the fault as written
 * @param at when, from the run's start
 * @param action what is done
 * @param target the local server's kind ({@code broker}, {@code postgres}), or empty for {@link
 *     Action#RUN}
 * @param node the node, from 1 (0 for {@link Action#RUN})
 * @param nodeWritten whether the text names the node ({@code kill postgres} does not: node 1)
 * @param duration how long a pause or a kill lasts before the server is resumed or started again;
 *     {@link Duration#ZERO} for a fault that is not undone
 * @param command the command of {@link Action#RUN}, else empty
 * @param delay the delay of {@link Action#DELAY}, else {@link Duration#ZERO}
 * @param starve the CPU left to the server by {@link Action#STARVE}, else null
 * @param label the fault without its time, in lower case but for a command, its length as written:
 *     how the record, the report and the checks name it
 */
public record Fault(
    String text,
    Duration at,
    Action action,
    String target,
    int node,
    boolean nodeWritten,
    Duration duration,
    String command,
    Duration delay,
    String label,
    io.fusillade.starve.CpuStarve starve) {

  /** What a fault does. */
  public enum Action {
    /** Freezes the server's processes (SIGSTOP), and lets them go on after the duration. */
    PAUSE,
    /** Kills the server as a crash would; starts it again after the duration, if one is given. */
    KILL,
    /** Starts a killed server again. */
    RESTART,
    /** Runs a shell command ({@code sh -c}); its exit code and output go to the run record. */
    RUN,
    /**
     * Delays every answer of the server by {@link Fault#delay()}, as a slow network would, for the
     * duration.
     */
    DELAY,
    /** Starves the server of CPU ({@link Fault#starve()}) for the duration, or to the run's end. */
    STARVE
  }

  /** A fault of another kind than {@link Action#STARVE}. */
  public Fault(
      String text,
      Duration at,
      Action action,
      String target,
      int node,
      boolean nodeWritten,
      Duration duration,
      String command,
      Duration delay,
      String label) {
    this(text, at, action, target, node, nodeWritten, duration, command, delay, label, null);
  }

  /** What a fault looks like, for error messages. */
  public static final String EXAMPLES =
      "'at 30s pause broker 2 for 10s', 'at 60s kill broker 1', 'at 90s restart broker 1',"
          + " 'at 40s delay postgres by 50ms for 10s', 'at 0s starve postgres cpu 1 burners 1 for"
          + " 60s' or 'at 20s run: ssh db3 sudo systemctl stop postgresql'";

  private static final Pattern AT = Pattern.compile("at\\s+(\\S+)\\s+(.*)", Pattern.DOTALL);
  private static final Pattern STARVE =
      Pattern.compile(
          "starve\\s+([a-z][a-z0-9_-]*)(?:\\s+(\\d+))?\\s+(cpus?\\b.*?)(?:\\s+for\\s+(\\S+))?",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
  private static final Pattern SERVER =
      Pattern.compile(
          "(pause|kill|restart|delay)\\s+([a-z][a-z0-9_-]*)(?:\\s+(\\d+))?"
              + "(?:\\s+by\\s+(\\S+))?(?:\\s+for\\s+(\\S+))?",
          Pattern.CASE_INSENSITIVE);

  /**
   * Reads a fault.
   *
   * @throws IllegalArgumentException quoting the fault and showing the form
   */
  public static Fault parse(String text) {
    String fault = text == null ? "" : text.strip();
    Matcher at = AT.matcher(fault);
    if (!at.matches()) {
      throw bad(fault, "a fault starts with its time, e.g. 'at 30s'; examples: " + EXAMPLES);
    }
    Duration when = duration(fault, at.group(1), "time");
    String rest = at.group(2).strip();
    String lower = rest.toLowerCase(Locale.ROOT);
    if (lower.startsWith("run:")) {
      String command = rest.substring(4).strip();
      if (command.isEmpty()) {
        throw bad(fault, "'run:' needs the command to run");
      }
      return new Fault(
          fault,
          when,
          Action.RUN,
          "",
          0,
          false,
          Duration.ZERO,
          command,
          Duration.ZERO,
          "run: " + command);
    }
    if (lower.startsWith("network")) {
      throw bad(
          fault,
          "a local server's answers are delayed with 'delay postgres by 50ms for 10s'; other"
              + " network faults (loss), and any on a server of yours, need root and tc netem on"
              + " its host: schedule them with 'run:', e.g. 'at 30s run: ssh db3 sudo tc qdisc add"
              + " dev eth0 root netem delay 50ms'");
    }
    if (lower.startsWith("starve")) {
      return starve(fault, when, rest);
    }
    Matcher server = SERVER.matcher(rest);
    if (!server.matches()) {
      throw bad(
          fault, "expected pause, kill, restart or run: after the time; examples: " + EXAMPLES);
    }
    Action action = Action.valueOf(server.group(1).toUpperCase(Locale.ROOT));
    int node = server.group(3) == null ? 1 : Integer.parseInt(server.group(3));
    if (node < 1) {
      throw bad(fault, "nodes count from 1");
    }
    Duration duration =
        server.group(5) == null ? Duration.ZERO : duration(fault, server.group(5), "duration");
    Duration delay =
        server.group(4) == null ? Duration.ZERO : duration(fault, server.group(4), "delay");
    if (action == Action.DELAY && (delay.isZero() || duration.isZero())) {
      throw bad(fault, "a delay needs its size and length, e.g. 'delay postgres by 50ms for 10s'");
    }
    if (action != Action.DELAY && server.group(4) != null) {
      throw bad(fault, "'by' goes with a delay: 'delay postgres by 50ms for 10s'");
    }
    if (action == Action.PAUSE && duration.isZero()) {
      throw bad(fault, "a pause needs its length, e.g. 'pause broker 2 for 10s'");
    }
    if (action == Action.RESTART && !duration.isZero()) {
      throw bad(fault, "a restart has no length: 'restart broker 1'");
    }
    String target = server.group(2).toLowerCase(Locale.ROOT);
    String label =
        action.name().toLowerCase(Locale.ROOT)
            + " "
            + target
            + (server.group(3) == null ? "" : " " + node)
            + (delay.isZero() ? "" : " by " + server.group(4).toLowerCase(Locale.ROOT))
            + (duration.isZero() ? "" : " for " + server.group(5).toLowerCase(Locale.ROOT));
    return new Fault(
        fault, when, action, target, node, server.group(3) != null, duration, "", delay, label);
  }

  /** {@code starve postgres [NODE] cpu 1 [burners 2] [for 60s]}. */
  private static Fault starve(String fault, Duration when, String rest) {
    Matcher m = STARVE.matcher(rest);
    if (!m.matches()) {
      throw bad(
          fault,
          "a starvation names the server and the CPU left to it, e.g. 'starve postgres cpu 1"
              + " burners 1 for 60s'");
    }
    io.fusillade.starve.CpuStarve starve;
    try {
      starve = io.fusillade.starve.CpuStarve.parse(m.group(3));
    } catch (IllegalArgumentException e) {
      throw bad(fault, e.getMessage());
    }
    int node = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
    if (node < 1) {
      throw bad(fault, "nodes count from 1");
    }
    Duration duration =
        m.group(4) == null ? Duration.ZERO : duration(fault, m.group(4), "duration");
    String target = m.group(1).toLowerCase(Locale.ROOT);
    String label =
        "starve "
            + target
            + (m.group(2) == null ? "" : " " + node)
            + " "
            + starve.describe()
            + (duration.isZero() ? "" : " for " + m.group(4).toLowerCase(Locale.ROOT));
    return new Fault(
        fault,
        when,
        Action.STARVE,
        target,
        node,
        m.group(2) != null,
        duration,
        "",
        Duration.ZERO,
        label,
        starve);
  }

  private static Duration duration(String fault, String value, String what) {
    try {
      Duration d = SettingValues.parseDuration(value);
      if (d.isNegative()) {
        throw new IllegalArgumentException();
      }
      return d;
    } catch (IllegalArgumentException e) {
      throw bad(fault, "'" + value + "' is not a " + what + " (30s, 1m, 500ms...)");
    }
  }

  private static IllegalArgumentException bad(String fault, String why) {
    return new IllegalArgumentException("fault '" + fault + "': " + why);
  }

  /**
   * The local server's name as written, e.g. {@code broker 2} or {@code postgres}; empty for {@link
   * Action#RUN}.
   */
  public String server() {
    return action == Action.RUN ? "" : nodeWritten ? target + " " + node : target;
  }

  /** The duration, if the fault is undone after one. */
  public Optional<Duration> undoneAfter() {
    return duration.isZero() ? Optional.empty() : Optional.of(duration);
  }
}
