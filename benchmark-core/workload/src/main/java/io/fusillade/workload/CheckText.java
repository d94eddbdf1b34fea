package io.fusillade.workload;

/**
 * One entry of a workload's {@code checks:} list, as written: a check in the syntax of {@code
 * fusillade report --check} ({@code p99 < 50ms}, {@code errors < 1%}, {@code rate >= 99% of
 * target}...). This module does not parse checks (their parser lives in the reports module, above
 * it): the command line validates them and names a bad one by its {@link #location()}.
 *
 * @param text the check
 * @param location where it is in the file
 * @param path its field path, {@code checks[i]}
 */
public record CheckText(String text, Location location, String path) {

  /**
   * A problem with this check, for messages.
   *
   * @param message what is wrong
   * @return {@code file:line:column checks[i]: message}
   */
  public Problem problem(String message) {
    return new Problem(location, path, message);
  }
}
