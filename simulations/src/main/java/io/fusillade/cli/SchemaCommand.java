package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.progress.Progress;
import io.fusillade.workload.Workload;
import io.fusillade.workload.schema.Dialect;
import io.fusillade.workload.schema.SchemaTool;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fusillade schema up|fill|down WORKLOAD}: the tables of a workload, apart from runs. */
@Command(
    name = "schema",
    mixinStandardHelpOptions = true,
    description = {
      "Creates, fills or drops a workload's tables.",
      "up creates the tables and indexes of a workload, fill fills them, down drops them;",
      "up --fill creates the tables, fills them, then creates the indexes (the fastest way).",
      "Filling uses PostgreSQL's COPY, batched inserts elsewhere, and prints rows/s.",
      "Filling and index creation show progress (rows/s, %% done, ETA) after 2 s: one line",
      "redrawn on a terminal, one line every 10 s otherwise (see --progress).",
      "The password comes from the environment variable " + DatabaseOptions.PASSWORD_VARIABLE + "."
    })
final class SchemaCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "up|fill|down", description = "What to do.")
  String action;

  @Parameters(index = "1", paramLabel = "WORKLOAD", description = "The workload YAML file.")
  Path file;

  @Option(names = "--seed", description = "The seed of the rows (default: the workload's, or 1).")
  Long seed;

  @Option(
      names = "--fill",
      description =
          "up only: also fill the tables, creating the indexes after the rows (faster than up,"
              + " then fill).")
  boolean fill;

  @Option(names = "--url", paramLabel = "URL", description = DatabaseOptions.JDBC_URL)
  List<String> urls = new java.util.ArrayList<>();

  @Option(names = "--user", description = "The database user (default: the workload's).")
  String user;

  @Mixin ProgressOptions progress = new ProgressOptions();

  @Override
  public Integer call() {
    if (!List.of("up", "fill", "down").contains(action)) {
      throw new FusilladeException("schema: unknown action \"" + action + "\" (up, fill or down)");
    }
    if (fill && !action.equals("up")) {
      throw new FusilladeException("schema " + action + ": --fill goes with up (schema up --fill)");
    }
    // A wrong --progress or FUSILLADE_PROGRESS is a user error before any database is reached.
    Progress.Settings progressSettings = progress.settings();
    Workload workload = WorkloadFiles.load(file);
    TargetOptions db = new TargetOptions();
    db.urls = this.urls;
    db.user = this.user;
    List<String> urls = db.sqlUrls(workload);
    if (urls.isEmpty()) {
      throw new FusilladeException(
          "schema " + action + ": no database: give --url or a connection section in " + file);
    }
    // One node is enough: a distributed database shares its schema between nodes.
    String url = urls.get(0);
    PrintWriter out = spec.commandLine().getOut();
    try (Connection connection =
        DatabaseOptions.connect(url, db.user(workload), db.password(workload))) {
      SchemaTool tool =
          new SchemaTool(connection, Dialect.detect(connection, url), out, progressSettings);
      long rowsSeed = seed != null ? seed : workload.seed().orElse(Workload.DEFAULT_SEED);
      switch (action) {
        case "up" -> {
          if (fill) {
            tool.load(workload, rowsSeed);
          } else {
            tool.up(workload);
          }
        }
        case "fill" -> tool.fill(workload, rowsSeed);
        default -> tool.down(workload);
      }
    } catch (SQLException e) {
      throw new FusilladeException("schema " + action + ": " + e.getMessage(), e);
    }
    return 0;
  }
}
