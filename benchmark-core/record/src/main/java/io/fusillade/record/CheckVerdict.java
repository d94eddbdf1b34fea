package io.fusillade.record;

import java.util.Objects;

/**
 * The verdict of one check of a run, as the run analysis gives it ({@link RunAnalysis#finish}): the
 * check, whether it passed, and the line that says so with the rule that decided it.
 *
 * @param check the check's text, {@code p99 < 50ms}
 * @param passed whether it passed
 * @param line the verdict as printed, {@code passed: p99 < 50ms (p99 = 12.3 ms)}
 */
public record CheckVerdict(String check, boolean passed, String line) {
  /** Requires the check and the line. */
  public CheckVerdict {
    Objects.requireNonNull(check, "check");
    Objects.requireNonNull(line, "line");
  }
}
