package io.fusillade.system;

import java.util.Objects;

/**
 * A process whose CPU and memory the {@link SystemSampler} records beside the machine's: the
 * database under test, an embedded broker.
 *
 * <p>Given by PID, it covers that process and its descendants (PostgreSQL serves each connection
 * from a child of the postmaster). Given by name, it covers every process whose command name (the
 * executable's file name, or {@code /proc/<pid>/comm}) equals it, found again every second, so a
 * server started after the run still counts.
 *
 * @param pid the process id, or -1 when watched by name
 * @param name the command name, or null when watched by PID
 * @param label the name in gauge names: {@code process.<label>.cpu}; letters, digits, {@code _ -}
 */
public record WatchedProcess(long pid, String name, String label) {

  /**
   * Checks the fields.
   *
   * @param pid see {@link #pid()}
   * @param name see {@link #name()}
   * @param label see {@link #label()}
   */
  public WatchedProcess {
    Objects.requireNonNull(label, "label");
    if (!label.matches("[A-Za-z0-9_-]+")) {
      throw new IllegalArgumentException(
          "a process label is letters, digits, '_' and '-' only, got \"" + label + "\"");
    }
    if ((pid < 0) == (name == null)) {
      throw new IllegalArgumentException("watch a process by PID or by name, not both");
    }
  }

  /**
   * A process and its descendants, by PID.
   *
   * @param pid the process id
   * @param label the name in gauge names
   * @return the watched process
   */
  public static WatchedProcess ofPid(long pid, String label) {
    return new WatchedProcess(pid, null, label);
  }

  /**
   * Every process with this command name; the label is the name with other characters replaced by
   * {@code _}.
   *
   * @param name the command name, e.g. {@code postgres}
   * @return the watched processes
   */
  public static WatchedProcess ofName(String name) {
    return new WatchedProcess(-1, name, name.replaceAll("[^A-Za-z0-9_-]", "_"));
  }
}
