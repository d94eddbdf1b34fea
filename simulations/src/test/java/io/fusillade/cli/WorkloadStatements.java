package io.fusillade.cli;

import io.fusillade.gen.RowGenerator;
import io.fusillade.local.LocalPostgres;
import io.fusillade.sql.JdbcValues;
import io.fusillade.sql.SqlPlaceholders;
import io.fusillade.workload.Query;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadData;
import io.fusillade.workload.schema.Dialect;
import io.fusillade.workload.schema.SchemaTool;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A workload's queries run in the test's JVM over JDBC, bound as the runners bind them (each
 * statement's {@code $n} from the query's values, a transaction's statements committed together),
 * counting the rows each returned or changed: what a run sends, without a Gatling JVM, so that a
 * test sees every query's rows.
 */
final class WorkloadStatements {
  private WorkloadStatements() {}

  /**
   * A database of its own on the shared server, for a workload whose writes the others' must not
   * meet.
   */
  static String database(LocalPostgres postgres, String name) throws SQLException {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("create database " + name);
    }
    return postgres.jdbcUrl().replace("/" + LocalPostgres.DATABASE + "?", "/" + name + "?");
  }

  /** Creates and fills the workload's tables (and indexes) for {@code seed}. */
  static void load(String url, Workload workload, long seed) throws SQLException {
    try (Connection c = DriverManager.getConnection(url)) {
      SchemaTool tool =
          new SchemaTool(c, Dialect.detect(c, url), new PrintWriter(new StringWriter()));
      tool.up(workload);
      tool.fill(workload, seed);
    }
  }

  /**
   * Runs each query {@code draws} times with its next values.
   *
   * @return per query, the rows its statements returned or changed over the draws
   * @throws AssertionError naming the query and the statement when the database refuses one
   */
  static Map<String, Long> run(String url, Workload workload, long seed, int draws)
      throws SQLException {
    WorkloadData data = new WorkloadData(workload, seed);
    Map<String, Long> rows = new LinkedHashMap<>();
    try (Connection c = DriverManager.getConnection(url)) {
      c.setAutoCommit(false);
      List<Query> queries = workload.queries();
      for (int q = 0; q < queries.size(); q++) {
        Query query = queries.get(q);
        RowGenerator params = data.params(q, 0, 1);
        long total = 0;
        for (int d = 0; d < draws; d++) {
          Object[] values = params.next();
          for (String sql : query.statements()) {
            total += execute(c, query, sql, values);
          }
          c.commit();
        }
        rows.put(query.name(), total);
      }
    }
    return rows;
  }

  private static long execute(Connection c, Query query, String sql, Object[] values)
      throws SQLException {
    SqlPlaceholders.Jdbc jdbc = SqlPlaceholders.toJdbc(sql);
    try (PreparedStatement statement = c.prepareStatement(jdbc.sql())) {
      JdbcValues.bind(statement, jdbc.bind(values));
      long rows = 0;
      if (statement.execute()) {
        try (ResultSet result = statement.getResultSet()) {
          while (result.next()) {
            rows++;
          }
        }
      } else {
        rows = Math.max(0, statement.getUpdateCount());
      }
      return rows;
    } catch (SQLException e) {
      c.rollback();
      throw new AssertionError(query.name() + ": " + e.getMessage() + "\n  in: " + sql.strip(), e);
    }
  }

  /** The one run record a command left under {@code output} (a ladder's: its first run's). */
  static io.fusillade.record.RunRecord record(java.nio.file.Path output)
      throws java.io.IOException {
    try (java.util.stream.Stream<java.nio.file.Path> found = java.nio.file.Files.walk(output)) {
      java.nio.file.Path run =
          found
              .filter(p -> p.getFileName().toString().equals(io.fusillade.record.RunFiles.MANIFEST))
              .map(java.nio.file.Path::getParent)
              .sorted()
              .findFirst()
              .orElseThrow(() -> new AssertionError("no run record under " + output));
      return io.fusillade.record.RunRecordReader.read(run);
    }
  }
}
