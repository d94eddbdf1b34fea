package io.fusillade.workload.schema;

import io.fusillade.sql.SqlPlaceholders;
import io.fusillade.workload.Location;
import io.fusillade.workload.Problem;
import io.fusillade.workload.Query;
import io.fusillade.workload.Table;
import io.fusillade.workload.Workload;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code fusillade workload check --url URL}: has the database prepare every query of a workload,
 * so that what only the database knows (a cast it lacks, such as {@code $2::string} on PostgreSQL,
 * a misspelt column, a type mismatch) is reported before a run, with the query's line and column,
 * instead of as a run of 100% KO.
 *
 * <p>Each query is prepared ({@link Connection#prepareStatement}) and described ({@link
 * PreparedStatement#getParameterMetaData()}: PostgreSQL's driver prepares lazily, and only a
 * describe makes the server parse and plan the statement). On PostgreSQL this happens in a
 * transaction that is rolled back at the end, in which the workload's tables that do not exist yet
 * are created first (DDL is transactional there), so a workload can be checked before {@code schema
 * up} and leaves nothing behind; each query has its own savepoint, so that one failure does not
 * abort the others. On other databases, the queries are prepared as they are: tables must exist.
 */
public final class QueryCheck {
  private QueryCheck() {}

  /**
   * Prepares every query of {@code workload}.
   *
   * @param workload a valid workload
   * @param connection an open connection; left in auto-commit mode as found
   * @param dialect the database's dialect
   * @return one problem per query the database rejects, at its {@code sql}; empty when all pass
   * @throws SQLException when the connection itself fails (not a query)
   */
  public static List<Problem> prepare(Workload workload, Connection connection, Dialect dialect)
      throws SQLException {
    List<Problem> problems = new ArrayList<>();
    boolean transactional = dialect.transactional();
    boolean autoCommit = connection.getAutoCommit();
    if (transactional) {
      connection.setAutoCommit(false);
    }
    try {
      if (transactional) {
        createMissingTables(workload, connection, dialect);
      }
      List<Query> queries = workload.queries();
      for (int i = 0; i < queries.size(); i++) {
        Query query = queries.get(i);
        // a transaction: each of its statements, named by its place in the list
        List<String> statements = query.statements();
        for (int j = 0; j < statements.size(); j++) {
          String message = prepare(statements.get(j), connection, transactional);
          if (message != null) {
            Location at =
                query.location() != null ? query.location() : new Location(workload.file(), 1, 1);
            boolean transaction = !query.transaction().isEmpty();
            problems.add(
                new Problem(
                    at,
                    "queries[" + i + "]." + (transaction ? "transaction[" + j + "]" : "sql"),
                    "the database rejects "
                        + (transaction ? "statement " + (j + 1) + " of " : "")
                        + "query '"
                        + query.name()
                        + "': "
                        + message));
          }
        }
      }
    } finally {
      if (transactional) {
        connection.rollback();
        connection.setAutoCommit(autoCommit);
      }
    }
    return problems;
  }

  /** Prepares and describes one statement: null when the database accepts it, else why not. */
  private static String prepare(String sql, Connection connection, boolean transactional)
      throws SQLException {
    Savepoint savepoint = transactional ? connection.setSavepoint() : null;
    try (PreparedStatement statement =
        connection.prepareStatement(SqlPlaceholders.toJdbc(sql).sql())) {
      statement.getParameterMetaData();
      return null;
    } catch (SQLException e) {
      if (savepoint != null) {
        connection.rollback(savepoint);
      }
      return firstLine(e.getMessage());
    } finally {
      if (savepoint != null) {
        try {
          connection.releaseSavepoint(savepoint);
        } catch (SQLException alreadyRolledBack) {
          // released by the rollback
        }
      }
    }
  }

  /** Creates, in the open transaction, the workload's tables that PostgreSQL lacks. */
  private static void createMissingTables(Workload workload, Connection connection, Dialect dialect)
      throws SQLException {
    for (Table table : workload.tables()) {
      // to_regclass: the table as a query would name it (search path, quoting), or null.
      boolean exists;
      try (PreparedStatement find = connection.prepareStatement("select to_regclass(?)")) {
        find.setString(1, SchemaDdl.quote(table.name()));
        try (ResultSet found = find.executeQuery()) {
          exists = found.next() && found.getString(1) != null;
        }
      }
      if (!exists) {
        try (Statement statement = connection.createStatement()) {
          statement.execute(SchemaDdl.createTable(table, dialect));
        }
      }
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "(no message)";
    }
    int newline = message.indexOf('\n');
    return (newline < 0 ? message : message.substring(0, newline)).strip();
  }
}
