package io.fusillade.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code fusillade} command lines of a CI pipeline file (the Jenkinsfile, a GitHub Actions
 * workflow): every {@code ./fusillade} (or {@code java -jar .../fusillade.jar}) followed by its
 * words, read as a shell reads them. A backslash at the end of a line continues it; the command
 * line ends at the end of the line or at an unquoted {@code ; | & > < ( )} or {@code #}; quotes
 * group words ({@code --check 'p99 < 50ms'} is two words). Comment lines ({@code #}, {@code //})
 * are prose, not command lines. A quote left open is a problem, so a line this reader cannot follow
 * fails the test rather than being skipped.
 */
final class PipelineInvocations {
  /** How the pipelines call the command: the checkout's script, or the jar itself. */
  private static final Pattern START =
      Pattern.compile("(?<![\\w./-])(?:\\./fusillade|\\S*/fusillade\\.jar)(?=\\s|$)");

  private static final String OPERATORS = ";|&<>()";

  private PipelineInvocations() {}

  /**
   * One command line.
   *
   * @param line the line of the file it starts on (1-based)
   * @param words the words after the program: the command, its subcommand, options and values
   */
  record Invocation(int line, List<String> words) {
    @Override
    public String toString() {
      return "line " + line + ": fusillade " + String.join(" ", words);
    }
  }

  /**
   * The command lines of a file's text.
   *
   * @param problems receives one line per command line that cannot be read (an open quote)
   */
  static List<Invocation> of(String text, List<String> problems) {
    List<Invocation> found = new ArrayList<>();
    String[] lines = text.split("\\R", -1);
    for (int i = 0; i < lines.length; i++) {
      int first = i;
      StringBuilder logical = new StringBuilder(lines[i]);
      // A shell line continued with a trailing backslash.
      while (logical.toString().stripTrailing().endsWith("\\") && i + 1 < lines.length) {
        String current = logical.toString().stripTrailing();
        logical.setLength(0);
        logical.append(current, 0, current.length() - 1).append(' ').append(lines[++i]);
      }
      if (isComment(logical.toString())) {
        continue;
      }
      Matcher start = START.matcher(logical);
      while (start.find()) {
        List<String> words = new ArrayList<>();
        String problem = words(logical.substring(start.end()), words);
        if (problem != null) {
          problems.add("line " + (first + 1) + ": " + problem + ": " + logical.toString().strip());
        } else {
          found.add(new Invocation(first + 1, List.copyOf(words)));
        }
      }
    }
    return found;
  }

  /** A comment line of Groovy, YAML or shell: prose that may name commands, not run them. */
  private static boolean isComment(String line) {
    String s = line.strip();
    return s.startsWith("#") || s.startsWith("//") || s.startsWith("/*") || s.startsWith("*");
  }

  /** Splits a command line into words until its end; returns a problem, or null. */
  private static String words(String rest, List<String> words) {
    StringBuilder word = null;
    char quote = 0;
    for (int i = 0; i < rest.length(); i++) {
      char c = rest.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else if (c == '\\' && quote == '"' && i + 1 < rest.length()) {
          word.append(rest.charAt(++i));
        } else {
          word.append(c);
        }
        continue;
      }
      if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
        continue;
      }
      if (OPERATORS.indexOf(c) >= 0 || (c == '#' && word == null)) {
        break;
      }
      if (word == null) {
        word = new StringBuilder();
      }
      if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '\\' && i + 1 < rest.length()) {
        word.append(rest.charAt(++i));
      } else {
        word.append(c);
      }
    }
    if (quote != 0) {
      return "a quote (" + quote + ") is not closed on the line";
    }
    if (word != null) {
      words.add(word.toString());
    }
    return null;
  }
}
