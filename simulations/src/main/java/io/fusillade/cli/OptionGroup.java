package io.fusillade.cli;

import io.fusillade.FusilladeException;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * Options that belong together (the load, the SQL client, the embedded servers, the outputs...),
 * declared once and composed by the commands they apply to with {@code @Mixin}: a command takes an
 * option only if it composes its group, so an option that cannot apply to a command is unknown to
 * it (with picocli's did-you-mean), and one that cannot apply to a workload is refused by the group
 * that knows why ({@link #refuse}).
 */
abstract class OptionGroup {
  @Spec(Spec.Target.SELF)
  CommandSpec self;

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  /** The options of this group given on the command line, by their longest names. */
  List<String> given() {
    if (self == null || command == null || command.commandLine() == null) {
      return List.of(); // built by code, not parsed
    }
    ParseResult parsed = command.commandLine().getParseResult();
    if (parsed == null) {
      return List.of();
    }
    return self.options().stream()
        .map(OptionSpec::longestName)
        .filter(parsed::hasMatchedOption)
        .toList();
  }

  /** The names of this group's options, for messages. */
  List<String> names() {
    return self == null ? List.of() : self.options().stream().map(OptionSpec::longestName).toList();
  }

  /**
   * Refuses the options of this group given on the command line, if any.
   *
   * @param why why they do not apply, after their names: {@code "apply to SQL workloads; w.yml has
   *     topics"}
   */
  void refuse(String why) {
    List<String> given = given();
    if (!given.isEmpty()) {
      throw new FusilladeException(String.join(", ", given) + " " + why);
    }
  }
}
