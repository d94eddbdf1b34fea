package io.fusillade.local;

import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A watchdog process beside an embedded server: when the JVM that started the server ends, however
 * it ends ({@code kill -9} and {@link Runtime#halt} included), it stops every process whose command
 * line names the server's directory and, for a directory of its own, removes it. The server goes
 * within a second of its owner, whatever the owner was doing (starting the server, running a load,
 * draining it), and no reaper has to come by later.
 *
 * <p>How it knows: its standard input is a pipe whose only writer is the owning JVM (a JVM's child
 * processes inherit no other descriptor than 0, 1 and 2), so the kernel closes that pipe when the
 * owner dies, and the watchdog reads its end. Not {@code PR_SET_PDEATHSIG} ({@code setpriv
 * --pdeathsig}): the kernel sends that signal when the <em>thread</em> that forked the child ends,
 * and a JVM starts its children from whatever thread asks, pool threads included.
 *
 * <p>What it stops: the processes whose command line holds {@code DIRECTORY/} (a broker's {@code
 * DIRECTORY/server.properties}, an OpenSearch node's {@code DIRECTORY/node-2}, the postmaster's
 * {@code -D DIRECTORY/data}, an {@code initdb} under way), read from {@code /proc}, so that it
 * finds a server whose pid file is not written yet, and their children (PostgreSQL's backends, each
 * in a session of its own), taken together once. Each first gets SIGCONT (a server a fault froze),
 * then the stop signal of its kind (SIGQUIT for PostgreSQL, its immediate shutdown; SIGKILL for a
 * broker or node JVM, whose data is deleted next), and SIGKILL after a second if still there (a
 * process started with SIGQUIT ignored, as a background job's children are, keeps ignoring it).
 * Then it unmounts what is mounted under the directory (a broker's small disk, {@link Mounts}).
 *
 * <p>It outlives the signals that stop its owner: a Ctrl-C goes to the terminal's whole process
 * group, the watchdog included, and a watchdog that died of it would leave a server its owner had
 * not closed yet (one still starting: its postmaster, forked by {@code pg_ctl} into a session of
 * its own, ran on after a Ctrl-C, CI 2026-12-02). It ignores the signals that stop a run or a
 * terminal (SIGINT, SIGQUIT, SIGHUP, SIGTERM): its pipe's end is what ends it.
 *
 * <p>The watchdog is a {@code sh} script (no JVM to start: it costs a shell and a millisecond);
 * Linux only, as the embedded servers are. {@link #close()} ends it when the server was closed
 * normally: it then finds nothing to stop, and an already deleted directory.
 */
final class OwnerWatch implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OwnerWatch.class);

  /**
   * The watchdog. The directory comes through the environment, not the command line, so that the
   * shell and the commands it runs never name it themselves; grep reads the pattern from its
   * standard input for the same reason.
   */
  static final String SCRIPT =
      """
      trap '' INT QUIT HUP TERM
      while read -r line; do :; done
      dir=$FUSILLADE_WATCHED
      case "$dir" in /?*/?*) ;; *) exit 2 ;; esac
      found=$(printf '%s/\n' "$dir" | grep -slaFf - /proc/[0-9]*/cmdline | cut -d/ -f3)
      all=
      for p in $found; do all="$all $p $(ps -o pid= --ppid "$p")"; done
      signal() { for p in $all; do kill -s "$1" "$p"; done 2>/dev/null; }
      alive() {
        for p in $all; do
          { read -r _ _ state _ < "/proc/$p/stat"; } 2>/dev/null && [ "$state" != Z ] && return 0
        done
        return 1
      }
      signal CONT
      signal "$FUSILLADE_STOP"
      n=0
      while alive && [ $n -lt 20 ]; do sleep 0.05; n=$((n + 1)); done
      signal KILL
      while read -r _ m _; do
        case "$m" in "$dir"/*) umount -l "$m" ;; esac
      done < /proc/self/mounts 2>/dev/null
      if [ "$FUSILLADE_DELETE" = yes ]; then rm -rf -- "$dir"; fi
      """;

  /** How a server of some kind is stopped when its owner is gone. */
  enum Stop {
    /** PostgreSQL's immediate shutdown: its backends end, its shared memory is released. */
    QUIT,
    /** A JVM (a broker, a node): at once; its data is deleted next. */
    KILL
  }

  private final Process watchdog; // null when it could not start

  private OwnerWatch(Process watchdog) {
    this.watchdog = watchdog;
  }

  /**
   * Starts the watchdog of {@code directory} for this JVM.
   *
   * @param directory an absolute path of at least two components
   * @param stop how its processes are stopped
   * @param delete whether the directory is removed afterwards (a server directory of this JVM's;
   *     not a data directory the user chose)
   * @return the watch; without a shell, one that watches nothing (said at debug level: the reaper
   *     of the next start and {@code fusillade run}'s end stop what is left)
   */
  static OwnerWatch start(Path directory, Stop stop, boolean delete) {
    Path absolute = directory.toAbsolutePath().normalize();
    if (absolute.getNameCount() < 2) {
      throw new IllegalArgumentException("not a server directory to watch: " + absolute);
    }
    ProcessBuilder builder =
        new ProcessBuilder("sh", "-c", SCRIPT)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().put("FUSILLADE_WATCHED", absolute.toString());
    builder.environment().put("FUSILLADE_STOP", stop.name());
    builder.environment().put("FUSILLADE_DELETE", delete ? "yes" : "no");
    try {
      return new OwnerWatch(builder.start());
    } catch (IOException e) {
      LOG.debug("No watchdog for {}: {}", absolute, e.toString());
      return new OwnerWatch(null);
    }
  }

  /** The watchdog's process, for tests; null when none runs. */
  Process process() {
    return watchdog;
  }

  /**
   * Ends the watch: the watchdog stops what still names the directory (normally nothing: the server
   * was closed) and removes it if it was told to, then exits. Does not wait for it.
   */
  @Override
  public void close() {
    if (watchdog == null) {
      return;
    }
    try {
      watchdog.getOutputStream().close();
    } catch (IOException e) {
      watchdog.destroy(); // its pipe is gone either way
    }
  }
}
