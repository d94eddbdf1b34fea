package io.fusillade.cli;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;

/**
 * Checks command lines against the real {@code fusillade} command: the command (and its subcommand,
 * for {@code schema} and {@code workload}) must exist, and every option must be one that the
 * command's {@code --help} lists. Runs the command in this JVM ({@link CliRun}).
 */
final class PipelineCommands {
  private PipelineCommands() {}

  /** One line per problem, naming the command line; empty when all of them exist. */
  static List<String> problems(List<PipelineInvocations.Invocation> invocations) {
    List<String> problems = new ArrayList<>();
    for (PipelineInvocations.Invocation invocation : invocations) {
      problems.addAll(problems(invocation));
    }
    return problems;
  }

  private static List<String> problems(PipelineInvocations.Invocation invocation) {
    List<String> words = invocation.words();
    if (words.isEmpty() || words.get(0).startsWith("-")) {
      return List.of(invocation + ": no command");
    }
    List<String> command = new ArrayList<>(List.of(words.get(0)));
    CommandLine root = new CommandLine(new FusilladeCommand());
    CommandLine sub = root.getSubcommands().get(words.get(0));
    if (sub == null) {
      return List.of(invocation + ": no command \"" + words.get(0) + "\"");
    }
    if (!sub.getSubcommands().isEmpty()) {
      String name = words.size() > 1 ? words.get(1) : "";
      if (sub.getSubcommands().get(name) == null) {
        return List.of(
            invocation
                + ": fusillade "
                + words.get(0)
                + " has no subcommand \""
                + name
                + "\" (it has "
                + sub.getSubcommands().keySet()
                + ")");
      }
      command.add(name);
    }
    Set<String> options = helpOptions(command);
    List<String> problems = new ArrayList<>();
    for (String word : words.subList(command.size(), words.size())) {
      if (word.equals("--")) {
        break; // the end of the options: what follows are arguments
      }
      if (word.startsWith("-") && word.length() > 1) {
        String name = word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
        if (!options.contains(name)) {
          problems.add(
              invocation
                  + ": fusillade "
                  + String.join(" ", command)
                  + " has no option "
                  + name
                  + " (its --help lists "
                  + options
                  + ")");
        }
      }
    }
    return problems;
  }

  /**
   * The option names that {@code fusillade COMMAND --help} lists: the first column of its option
   * lines ({@code -o, --output=DIR where to write...}).
   */
  static Set<String> helpOptions(List<String> command) {
    List<String> args = new ArrayList<>(command);
    args.add("--help");
    CliRun help = CliRun.of(args.toArray(String[]::new));
    if (help.exitCode() != 0) {
      throw new AssertionError("fusillade " + String.join(" ", args) + " failed: " + help.err());
    }
    Set<String> names = new LinkedHashSet<>();
    for (String line : help.out().split("\\R")) {
      String trimmed = line.strip();
      if (!line.startsWith(" ") || !trimmed.startsWith("-")) {
        continue;
      }
      String column = trimmed.split("\\s{2,}", 2)[0];
      for (String part : column.split(",\\s*")) {
        String name = part.split("[=\\s\\[]", 2)[0];
        if (name.matches("--?[A-Za-z][\\w-]*")) {
          names.add(name);
        }
      }
    }
    return names;
  }
}
