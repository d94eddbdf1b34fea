package io.fusillade.workload;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Replaces {@code ${env:NAME}} with the value of environment variable NAME, so that URLs, users and
 * passwords stay out of workload files. Failures are reported by variable name, never by value.
 */
final class Interpolation {

  private static final String START = "${env:";

  private Interpolation() {}

  /**
   * @param text the raw value
   * @param environment variable lookup (null for unset)
   * @param problems where to report failures, with {@code at} and {@code path}
   * @param at the value's location
   * @param path the field path
   * @return the value with variables replaced, or empty after a problem
   */
  static Optional<String> apply(
      String text,
      Function<String, String> environment,
      List<Problem> problems,
      Location at,
      String path) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (true) {
      int start = text.indexOf(START, i);
      if (start < 0) {
        out.append(text, i, text.length());
        return Optional.of(out.toString());
      }
      int end = text.indexOf('}', start);
      if (end < 0) {
        problems.add(new Problem(at, path, "unterminated ${env:...}: a closing } is missing"));
        return Optional.empty();
      }
      String name = text.substring(start + START.length(), end);
      if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        problems.add(
            new Problem(at, path, "'" + name + "' is not a valid environment variable name"));
        return Optional.empty();
      }
      String value = environment.apply(name);
      if (value == null) {
        problems.add(new Problem(at, path, "environment variable " + name + " is not set"));
        return Optional.empty();
      }
      out.append(text, i, start).append(value);
      i = end + 1;
    }
  }

  /**
   * @param text a raw value
   * @return whether it refers to the environment
   */
  static boolean usesEnvironment(String text) {
    return text.contains(START);
  }
}
