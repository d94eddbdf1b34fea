package io.fusillade.reports.checks;

/**
 * The outcome of one check on one run.
 *
 * @param check the check as written, e.g. {@code p99 < 50ms}
 * @param passed whether it held
 * @param measured what was measured, e.g. {@code p99 = 42.1 ms}
 * @param message one line for the console and the JUnit report, with the measured value
 */
public record CheckResult(String check, boolean passed, String measured, String message) {

  static CheckResult of(String check, boolean passed, String measured, String detail) {
    String verdict = passed ? "passed" : "FAILED";
    String message =
        verdict + ": " + check + " (" + measured + (detail.isEmpty() ? "" : "; " + detail) + ")";
    return new CheckResult(check, passed, measured, message);
  }
}
