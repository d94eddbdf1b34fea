package io.fusillade.system;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A server's log file whose lines a run counts, per named pattern and per second, beside its
 * requests ({@link LogCounter}): the database's {@code WARNING}s, its {@code could not send data to
 * client}. A line counts once for each pattern it matches anywhere ({@link
 * java.util.regex.Matcher#find()}).
 *
 * @param name the source's name in the gauges, {@code server.<name>.log.<pattern>}: letters,
 *     digits, '_' and '-'
 * @param file the log file, read from its end at the run's start
 * @param patterns the patterns by name (same characters as {@code name}), in order
 */
public record LogWatch(String name, Path file, Map<String, Pattern> patterns) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");

  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException naming the field that is wrong
   */
  public LogWatch {
    Objects.requireNonNull(file, "file");
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "log source name \"" + name + "\" must be letters, digits, '_' or '-'");
    }
    if (patterns == null || patterns.isEmpty()) {
      throw new IllegalArgumentException(
          "log source " + name + ": give at least one pattern, e.g. warning: \"WARNING\"");
    }
    for (String pattern : patterns.keySet()) {
      if (!NAME.matcher(pattern).matches()) {
        throw new IllegalArgumentException(
            "log source "
                + name
                + ": pattern name \""
                + pattern
                + "\" must be letters, digits, '_' or '-'");
      }
    }
    patterns = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(patterns));
  }

  /**
   * A source from regular expressions as written.
   *
   * @param name see {@link #name()}
   * @param file see {@link #file()}
   * @param regexes the patterns' regular expressions by name
   * @return the source
   * @throws IllegalArgumentException naming the pattern that is not a regular expression
   */
  public static LogWatch of(String name, Path file, Map<String, String> regexes) {
    Map<String, Pattern> compiled = new LinkedHashMap<>();
    if (regexes != null) {
      regexes.forEach(
          (pattern, regex) -> {
            try {
              compiled.put(pattern, Pattern.compile(regex));
            } catch (PatternSyntaxException e) {
              throw new IllegalArgumentException(
                  "log source "
                      + name
                      + ": pattern "
                      + pattern
                      + " \""
                      + regex
                      + "\" is not a regular expression: "
                      + e.getDescription());
            }
          });
    }
    return new LogWatch(name, file, compiled);
  }

  /** The gauge of one pattern: {@code server.<name>.log.<pattern>}. */
  public String gauge(String pattern) {
    return ServerScraper.PREFIX + name + ".log." + pattern;
  }
}
