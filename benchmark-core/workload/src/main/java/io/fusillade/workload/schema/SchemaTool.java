package io.fusillade.workload.schema;

import io.fusillade.FusilladeException;
import io.fusillade.progress.Progress;
import io.fusillade.workload.Index;
import io.fusillade.workload.Table;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadData;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code schema up | fill | down}: creates a workload's tables and indexes, fills the tables with
 * the generator module's rows, drops them. Separate from the load run because filling is long.
 */
public final class SchemaTool {
  private final Connection connection;
  private final Dialect dialect;
  private final PrintWriter out;
  private final Progress.Settings progressSettings;

  /** A tool that shows progress as {@link Progress.Mode#AUTO} decides. */
  public SchemaTool(Connection connection, Dialect dialect, PrintWriter out) {
    this(connection, dialect, out, Progress.Settings.of(Progress.Mode.AUTO));
  }

  /**
   * A tool printing to {@code out}, with the progress of filling and index creation shown as {@code
   * progress} says.
   */
  public SchemaTool(
      Connection connection, Dialect dialect, PrintWriter out, Progress.Settings progress) {
    this.connection = connection;
    this.dialect = dialect;
    this.out = out;
    this.progressSettings = progress;
  }

  /** Creates the tables, then the indexes. */
  public void up(Workload workload) {
    createTables(workload);
    createIndexes(workload);
  }

  /**
   * Loads a workload's data: creates the tables, fills them for {@code seed}, then creates the
   * indexes, which a database builds from the rows at once faster than it updates them row by row
   * (the TPC-DS-derived store_sales at SF 0.1 and its four indexes, on the embedded PostgreSQL: 6.2
   * s to fill it under them; 3.5 s to fill it before them, and 0.8 s to build them).
   *
   * @return the rows written
   */
  public long load(Workload workload, long seed) {
    createTables(workload);
    long rows = fill(workload, seed);
    createIndexes(workload);
    return rows;
  }

  private void createTables(Workload workload) {
    for (Table table : workload.tables()) {
      VendorDdl vendor = VendorDdl.table(table, dialect);
      execute(
          SchemaDdl.createTable(table, dialect), "create table " + table.name(), vendor.timeout());
      out.println("created table " + table.name());
      ignored(vendor.ignoredLine("table " + table.name(), dialect));
    }
    out.flush();
  }

  private void createIndexes(Workload workload) {
    for (Index index : workload.indexes()) {
      VendorDdl vendor = VendorDdl.index(index, dialect);
      ignored(vendor.ignoredLine("index " + index.name(), dialect));
      // One statement, no row counts: the progress shows the elapsed time of a long build.
      Progress progress =
          Progress.of("creating index " + index.name(), out, progressSettings)
              .summary("created index " + index.name())
              .start();
      try {
        execute(
            SchemaDdl.createIndex(index, dialect),
            "create index " + index.name(),
            vendor.timeout());
      } catch (RuntimeException e) {
        progress.abandon();
        throw e;
      }
      progress.close();
    }
    out.flush();
  }

  /**
   * Fills every table with its {@code row_count} rows for {@code seed}: progress while it runs
   * (rows/s, % done, ETA), then {@code "filled TABLE: N rows in S s, R rows/s"}.
   */
  public long fill(Workload workload, long seed) {
    WorkloadData data = new WorkloadData(workload, seed);
    long total = 0;
    for (Table table : workload.tables()) {
      Progress progress =
          Progress.of("filling " + table.name(), out, progressSettings)
              .total(table.rowCount(), "rows")
              .summary("filled " + table.name())
              .start();
      long[] reported = {0};
      long rows;
      try {
        rows =
            TableFiller.fill(
                connection,
                table.name(),
                data.rows(table.name()),
                table.rowCount(),
                // The filler reports rows written so far; the progress counts increments.
                written -> {
                  progress.add(written - reported[0]);
                  reported[0] = written;
                });
      } catch (SQLException e) {
        progress.abandon();
        throw new FusilladeException(
            "cannot fill table "
                + table.name()
                + ": SQLState "
                + e.getSQLState()
                + ": "
                + e.getMessage(),
            e);
      } catch (RuntimeException e) {
        progress.abandon();
        throw e;
      }
      progress.add(rows - reported[0]);
      progress.close();
      analyze(table);
      total += rows;
    }
    return total;
  }

  /**
   * Has a PostgreSQL-protocol database gather the statistics of a table just filled: without them
   * the planner of the first queries guesses row counts (autovacuum gets there in its own time),
   * and an analytical query's plan, a star join's above all, can be orders of magnitude slower. A
   * database that refuses is told and left as it is.
   */
  private void analyze(Table table) {
    if (dialect != Dialect.POSTGRESQL && dialect != Dialect.GREENPLUM) {
      return;
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute("analyze " + SchemaDdl.quote(table.name()));
    } catch (SQLException e) {
      out.println("table " + table.name() + ": not analyzed: " + firstLine(e.getMessage()));
    }
  }

  /** Drops the tables (their indexes go with them); tables that do not exist are skipped. */
  public void down(Workload workload) {
    List<Table> tables = new ArrayList<>(workload.tables());
    java.util.Collections.reverse(tables);
    for (Table table : tables) {
      execute(SchemaDdl.dropTable(table), "drop table " + table.name());
      out.println("dropped table " + table.name());
    }
    out.flush();
  }

  /** Says which vendor keys the dialect could not use, rather than dropping them silently. */
  private void ignored(String line) {
    if (!line.isEmpty()) {
      out.println(line);
    }
  }

  private void execute(String sql, String what) {
    execute(sql, what, null);
  }

  /** Runs one statement, under the workload's {@code timeout} when it has one. */
  private void execute(String sql, String what, java.time.Duration timeout) {
    try (Statement statement = connection.createStatement()) {
      if (timeout != null) {
        // JDBC counts whole seconds; 0 would mean none
        statement.setQueryTimeout((int) Math.max(1, (timeout.toMillis() + 999) / 1000));
      }
      statement.execute(sql);
    } catch (SQLException e) {
      String hint = "42P07".equals(e.getSQLState()) ? " (run schema down first)" : "";
      throw new FusilladeException(
          "cannot "
              + what
              + ": SQLState "
              + e.getSQLState()
              + ": "
              + firstLine(e.getMessage())
              + hint,
          e);
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
