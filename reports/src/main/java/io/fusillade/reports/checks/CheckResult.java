package io.fusillade.reports.checks;

/**
 * The outcome of one check on one run.
 *
 * <p>Every line says why: {@code why} states the numbers measured and the rule that turned them
 * into the verdict, so that a pass never reads like a failure ("{@code passed: injector not
 * saturated — lag p99 31 ms is above 20 ms, but only 2 of 2,950 ticks were late; saturated needs
 * ...}"). The console, {@code junit.xml}, {@code summary.json} and the HTML report print the same
 * text.
 *
 * @param check the check as written, e.g. {@code p99 < 50ms}
 * @param passed whether it held
 * @param measured the value measured, short, e.g. {@code p99 = 42.1 ms}
 * @param why the measured numbers and the rule that decided, e.g. {@code p99 of all 2,000 requests
 *     (OK and KO) = 42.1 ms, below the limit 50 ms}
 * @param message one line for the console and the JUnit report: {@code passed: CHECK — WHY}
 * @param deferred not judged on this record, which is one injector's of several, but on their
 *     records together ({@code fusillade report DIR1 DIR2 ...}): neither a pass nor a failure of
 *     this injector ({@code passed} is true so that it fails nothing; the line says {@code
 *     deferred})
 */
public record CheckResult(
    String check, boolean passed, String measured, String why, String message, boolean deferred) {

  /**
   * A result whose line is {@code passed: CHECK — WHY} (or {@code FAILED: ...}).
   *
   * @param check the check as written
   * @param passed whether it held
   * @param measured the value measured, short
   * @param why the numbers and the rule that decided
   * @return the result
   */
  public static CheckResult of(String check, boolean passed, String measured, String why) {
    String verdict = passed ? "passed" : "FAILED";
    return new CheckResult(
        check, passed, measured, why, verdict + ": " + check + " — " + why, false);
  }

  /**
   * A check this record cannot judge alone: {@code deferred: CHECK — WHY}.
   *
   * @param check the check as written
   * @param measured what this record says, short
   * @param why why it is judged elsewhere, and where
   * @return the result
   */
  public static CheckResult deferred(String check, String measured, String why) {
    return new CheckResult(check, true, measured, why, "deferred: " + check + " — " + why, true);
  }
}
