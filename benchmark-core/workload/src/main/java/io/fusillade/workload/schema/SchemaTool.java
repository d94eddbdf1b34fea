package io.fusillade.workload.schema;

import io.fusillade.FusilladeException;
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
import java.util.Locale;

/**
 * {@code schema up | fill | down}: creates a workload's tables and indexes, fills the tables with
 * the generator module's rows, drops them. Separate from the load run because filling is long.
 */
public final class SchemaTool {
  private final Connection connection;
  private final Dialect dialect;
  private final PrintWriter out;

  public SchemaTool(Connection connection, Dialect dialect, PrintWriter out) {
    this.connection = connection;
    this.dialect = dialect;
    this.out = out;
  }

  /** Creates the tables, then the indexes. */
  public void up(Workload workload) {
    for (Table table : workload.tables()) {
      execute(SchemaDdl.createTable(table, dialect), "create table " + table.name());
      out.println("created table " + table.name());
    }
    for (Index index : workload.indexes()) {
      execute(SchemaDdl.createIndex(index), "create index " + index.name());
      out.println("created index " + index.name());
    }
    out.flush();
  }

  /** Fills every table with its {@code row_count} rows for {@code seed}; prints rows/s. */
  public long fill(Workload workload, long seed) {
    WorkloadData data = new WorkloadData(workload, seed);
    long total = 0;
    for (Table table : workload.tables()) {
      long start = System.nanoTime();
      long[] lastPrint = {start};
      long rows;
      try {
        rows =
            TableFiller.fill(
                connection,
                table.name(),
                data.rows(table.name()),
                table.rowCount(),
                written -> {
                  long now = System.nanoTime();
                  if (now - lastPrint[0] >= 1_000_000_000L) {
                    lastPrint[0] = now;
                    out.printf(
                        Locale.ROOT,
                        "filling %s: %,d of %,d rows, %,.0f rows/s%n",
                        table.name(),
                        written,
                        table.rowCount(),
                        written / ((now - start) / 1e9));
                    out.flush();
                  }
                });
      } catch (SQLException e) {
        throw new FusilladeException(
            "cannot fill table "
                + table.name()
                + ": SQLState "
                + e.getSQLState()
                + ": "
                + e.getMessage(),
            e);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      out.printf(
          Locale.ROOT,
          "filled %s: %,d rows in %.1f s, %,.0f rows/s%n",
          table.name(),
          rows,
          seconds,
          rows / Math.max(seconds, 1e-9));
      out.flush();
      total += rows;
    }
    return total;
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

  private void execute(String sql, String what) {
    try (Statement statement = connection.createStatement()) {
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
