package io.fusillade.cli;

import io.fusillade.FusilladeException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code fusillade} command line. Exit codes: 0 success, 1 an internal error (a bug: with a
 * stack trace), 2 a user error (a one-line message, no stack trace), 3 a check failed (or a limit
 * below {@code --expect-at-least}), 4 a run stopped by its abort rule, 5 a limit search that the
 * injector limited.
 */
@Command(
    name = "fusillade",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Load testing for data systems: SQL, topics and log ingestion.",
    subcommands = {
      RunCommand.class,
      LimitCommand.class,
      LadderCommand.class,
      SchemaCommand.class,
      SummaryCommand.class,
      ReportCommand.class,
      IntervalsCommand.class,
      CompareCommand.class,
      TrendCommand.class,
      WorkloadCommand.class,
      LogsCommand.class,
      StudyCommand.class,
      AgentCommand.class,
      K8sCommand.class,
      CommandLine.HelpCommand.class
    })
public final class FusilladeCommand implements Runnable {
  /** Exit code of a user error. */
  public static final int USER_ERROR = 2;

  /** Exit code of a failed check or a regression. */
  public static final int CHECK_FAILED = 3;

  /** Exit code of a run stopped by one of its abort rules ({@code fusillade run --abort-when}). */
  public static final int ABORTED = 4;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    if (System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile", "io/fusillade/cli/logback-cli.xml");
    }
    System.exit(
        execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the command line with the given output streams and returns the exit code. */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine commandLine = new CommandLine(new FusilladeCommand());
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setParameterExceptionHandler(
        (e, arguments) -> {
          CommandLine command = e.getCommandLine();
          command.getErr().println("fusillade: " + e.getMessage());
          if (e instanceof CommandLine.UnmatchedArgumentException unmatched) {
            // did you mean: on every command (UnknownOptions)
            java.util.List<String> options = UnknownOptions.suggestions(unmatched);
            if (!options.isEmpty()) {
              command.getErr().println("Did you mean " + String.join(" or ", options) + "?");
            }
          }
          command
              .getErr()
              .println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more.");
          return USER_ERROR;
        });
    commandLine.setExecutionExceptionHandler(
        (e, command, parseResult) -> {
          if (e instanceof FusilladeException) {
            command.getErr().println("fusillade: " + e.getMessage());
            return USER_ERROR;
          }
          throw e;
        });
    return commandLine.execute(args);
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
