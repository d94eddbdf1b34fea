package io.fusillade.plan;

/**
 * The exit codes of every {@code fusillade} command ({@code run}, {@code limit}, {@code ladder},
 * {@code report}, {@code compare}...): one table, documented in {@code command-line.md}. A code
 * means the same whichever command returns it.
 */
public enum ExitCode {
  /** The command did what it was asked and every check passed. */
  OK(0, "success"),
  /** The run failed (crashed, could not start, ended without its record) or an internal error. */
  FAILED(1, "the run failed, or an internal error"),
  /** A user's mistake, found before anything started: one line says what and where. */
  USER_ERROR(2, "a user error"),
  /**
   * A check failed: an objective, a comparison found a regression, a limit below {@code
   * --expect-at-least}, a ladder level that did not finish.
   */
  CHECK_FAILED(3, "a check failed"),
  /** An abort rule stopped the run. */
  ABORTED(4, "an abort rule stopped the run"),
  /** A limit search ended at the injector's own limit: the system's is not known. */
  INJECTOR_LIMIT(5, "the injector, not the system, was the limit"),
  /** A limit search found no rate that held on confirmation. */
  UNSTABLE(6, "the limit search found no stable rate"),
  /** Ctrl-C (SIGINT) stopped the command. */
  INTERRUPTED(130, "stopped by SIGINT (Ctrl-C)"),
  /** SIGTERM stopped the command. */
  TERMINATED(143, "stopped by SIGTERM");

  private final int code;
  private final String meaning;

  ExitCode(int code, String meaning) {
    this.code = code;
    this.meaning = meaning;
  }

  /** The process's exit code. */
  public int code() {
    return code;
  }

  /** What the code says, in a few words. */
  public String meaning() {
    return meaning;
  }

  /** The exit code of that number, or {@link #FAILED} for an unknown one. */
  public static ExitCode of(int code) {
    for (ExitCode c : values()) {
      if (c.code == code) {
        return c;
      }
    }
    return FAILED;
  }
}
