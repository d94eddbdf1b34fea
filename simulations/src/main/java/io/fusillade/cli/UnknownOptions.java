package io.fusillade.cli;

import io.fusillade.workload.Suggestions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * "Did you mean ...?" for an option a command does not have, on every command: picocli's own
 * suggestions (a misspelling: {@code --duraton} for {@code --duration}); else the option another
 * load tool names so ({@code --rps} of wrk2, vegeta and Gatling's users, {@code --vus} of k6) when
 * this command has its counterpart; else the closest of its options by edit distance.
 */
final class UnknownOptions {
  /**
   * Other load tools' names for Fusillade's options: the words a user of k6, wrk, vegeta, JMeter or
   * pgbench types first.
   */
  static final Map<String, String> OTHER_TOOLS =
      Map.ofEntries(
          Map.entry("rps", "--rate"),
          Map.entry("qps", "--rate"),
          Map.entry("tps", "--rate"),
          Map.entry("throughput", "--rate"),
          Map.entry("arrival-rate", "--rate"),
          Map.entry("vus", "--users"),
          Map.entry("threads", "--users"),
          Map.entry("connections", "--users"),
          Map.entry("clients", "--users"),
          Map.entry("concurrency", "--users"),
          Map.entry("time", "--duration"),
          Map.entry("jdbc-url", "--url"),
          Map.entry("host", "--url"));

  private UnknownOptions() {}

  /**
   * The options to suggest for the unknown ones of {@code e}.
   *
   * @param e picocli's error
   * @return the suggestions, best first; empty when none is close
   */
  static List<String> suggestions(UnmatchedArgumentException e) {
    Set<String> found = new LinkedHashSet<>(e.getSuggestions());
    if (!found.isEmpty()) {
      return List.copyOf(found);
    }
    CommandSpec command = e.getCommandLine().getCommandSpec();
    Set<String> options = new LinkedHashSet<>();
    command.options().forEach(o -> options.addAll(List.of(o.names())));
    for (String arg : e.getUnmatched()) {
      if (!arg.startsWith("-")) {
        continue;
      }
      String word = arg.replaceFirst("^-+", "").replaceFirst("=.*", "").toLowerCase(Locale.ROOT);
      String other = OTHER_TOOLS.get(word);
      if (other != null && options.contains(other)) {
        found.add(other);
        continue;
      }
      List<String> longOptions = new ArrayList<>();
      for (String option : options) {
        if (option.startsWith("--")) {
          longOptions.add(option.substring(2));
        }
      }
      Suggestions.closest(word, longOptions).ifPresent(o -> found.add("--" + o));
    }
    return List.copyOf(found);
  }
}
