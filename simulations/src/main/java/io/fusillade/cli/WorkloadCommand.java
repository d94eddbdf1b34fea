package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.sql.JdbcUrls;
import io.fusillade.workload.CastReview;
import io.fusillade.workload.LoadResult;
import io.fusillade.workload.Problem;
import io.fusillade.workload.RowFormat;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadCommands;
import io.fusillade.workload.WorkloadLoader;
import io.fusillade.workload.schema.Dialect;
import io.fusillade.workload.schema.QueryCheck;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
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

  /** {@code fusillade workload check FILE [--url URL [--user U]]}. */
  @Command(
      name = "check",
      description = {
        "Validate FILE: print every problem (exit 2) or a summary of the workload (exit 0).",
        "With --url, the database also prepares every query (a missing table, column or cast",
        "is reported at the query's line). The password comes from the environment variable "
            + DatabaseOptions.PASSWORD_VARIABLE
            + ", else the workload's connection."
      },
      mixinStandardHelpOptions = true)
  public static final class Check implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The workload YAML file.")
    Path file;

    @Option(names = "--seed", description = "The seed to show (default: the file's, or 1).")
    Long seed;

    @Option(
        names = "--url",
        paramLabel = "URL",
        description =
            "A JDBC URL: prepare every query there (on PostgreSQL, in a transaction that"
                + " is rolled back, with the missing tables created in it).")
    String connect;

    @Option(names = "--user", description = "The database user (default: the workload's).")
    String user;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      LoadResult loaded = WorkloadLoader.load(file);
      if (loaded.isValid()) {
        // Checks are parsed here (fusillade-reports), not by the loader: a bad one fails as run
        // does.
        RunChecks.validate(loaded.orThrow(), List.of());
      }
      if (connect == null || !loaded.isValid()) {
        return WorkloadCommands.check(file, seed, System::getenv, out, err);
      }
      Workload workload = loaded.orThrow();
      String where = JdbcUrls.mask(connect);
      String password = System.getenv(DatabaseOptions.PASSWORD_VARIABLE);
      if (password == null) {
        password = workload.connection().map(c -> c.password()).orElse(null);
      }
      String login = user != null ? user : workload.connection().map(c -> c.user()).orElse(null);
      try (Connection connection = DatabaseOptions.connect(connect, login, password)) {
        Dialect dialect = Dialect.detect(connection, connect);
        return WorkloadCommands.check(
            file, seed, System::getenv, new Server(connection, dialect, where), out, err);
      } catch (SQLException e) {
        throw new FusilladeException(
            "cannot check the queries on "
                + where
                + ": "
                + DatabaseOptions.firstLine(e.getMessage()));
      }
    }

    /** {@code --url}: the database's dialect, and its refusals of the queries as problems. */
    private record Server(Connection connection, Dialect dialect, String where)
        implements WorkloadCommands.Server {
      @Override
      public CastReview.Target target() {
        return switch (dialect) {
          case POSTGRESQL, GREENPLUM -> CastReview.Target.POSTGRESQL;
          case PICODATA -> CastReview.Target.PICODATA;
          case GENERIC -> CastReview.Target.OTHER;
        };
      }

      @Override
      public List<Problem> prepare(Workload workload) {
        try {
          return QueryCheck.prepare(workload, connection, dialect);
        } catch (SQLException e) {
          throw new FusilladeException(
              "cannot check the queries on "
                  + where
                  + ": "
                  + DatabaseOptions.firstLine(e.getMessage()));
        }
      }
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
