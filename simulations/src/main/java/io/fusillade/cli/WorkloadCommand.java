package io.fusillade.cli;

import io.fusillade.workload.RowFormat;
import io.fusillade.workload.WorkloadCommands;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fusillade workload check|sample}: validates a workload file, or prints rows generated from
 * it. Only parses arguments; the logic is {@link WorkloadCommands} in benchmark-core.
 */
@Command(
    name = "workload",
    description = "Validates a YAML workload or prints the rows it generates.",
    mixinStandardHelpOptions = true,
    subcommands = {WorkloadCommand.Check.class, WorkloadCommand.Sample.class})
public final class WorkloadCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return WorkloadCommands.USER_ERROR;
  }

  /** {@code fusillade workload check FILE}. */
  @Command(
      name = "check",
      description =
          "Validate FILE: print every problem (exit 2) or a summary of the workload (exit 0).",
      mixinStandardHelpOptions = true)
  public static final class Check implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The workload YAML file.")
    Path file;

    @Option(names = "--seed", description = "The seed to show (default: the file's, or 1).")
    Long seed;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      return WorkloadCommands.check(file, seed, System::getenv, out, err);
    }
  }

  /** {@code fusillade workload sample FILE --table T --rows N [--format csv|jsonl] [--seed S]}. */
  @Command(
      name = "sample",
      description = "Print rows generated for one table of FILE.",
      mixinStandardHelpOptions = true)
  public static final class Sample implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The workload YAML file.")
    Path file;

    @Option(names = "--table", required = true, description = "The table to generate.")
    String table;

    @Option(
        names = "--rows",
        defaultValue = "10",
        description = "How many rows (default: ${DEFAULT-VALUE}).")
    long rows;

    @Option(
        names = "--format",
        defaultValue = "csv",
        description = "csv or jsonl (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--seed", description = "The run seed (default: the file's, or 1).")
    Long seed;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      RowFormat rowFormat = RowFormat.parse(format).orElse(null);
      if (rowFormat == null) {
        err.println("--format must be csv or jsonl, got " + format);
        err.flush();
        return WorkloadCommands.USER_ERROR;
      }
      return WorkloadCommands.sample(file, table, rows, rowFormat, seed, System::getenv, out, err);
    }
  }
}
