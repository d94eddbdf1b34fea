package io.fusillade.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The kinds of {@link SqlWork}. Rows are read one at a time and counted; only the first row's
 * columns named by a check are kept.
 */
public final class Statements {
  private Statements() {}

  /** A statement with its parameter values. */
  public record Bound(String sql, Object[] params) {}

  /**
   * A query (or any statement): executes it, reads and counts the rows, keeps the first row's
   * {@code capture} columns. With {@code fetchSize > 0} the rows are fetched in chunks inside a
   * transaction, which is how PostgreSQL's driver streams a large result instead of buffering it.
   */
  public static SqlWork query(String sql, Object[] params, Set<String> capture, int fetchSize) {
    return new Query(sql, params, Set.copyOf(capture), fetchSize);
  }

  /**
   * A query or update, as {@link #query(String, Object[], Set, int)} makes it: what it runs, so
   * that an engine other than JDBC can run it too.
   */
  public record Query(String sql, Object[] params, Set<String> capture, int fetchSize)
      implements SqlWork {
    @Override
    public SqlResult run(Connection connection) throws SQLException {
      if (fetchSize > 0) {
        connection.setAutoCommit(false);
        try {
          SqlResult result = execute(connection, sql, params, capture, fetchSize);
          connection.commit();
          return result;
        } catch (SQLException e) {
          connection.rollback();
          throw e;
        }
      }
      return execute(connection, sql, params, capture, 0);
    }
  }

  /** A query or update without checks. */
  public static SqlWork query(String sql, Object[] params) {
    return query(sql, params, Set.of(), 0);
  }

  /**
   * Several statements as one transaction: {@code autoCommit} off, each executed in order, then a
   * commit; any failure rolls the whole transaction back and fails the request. The rows are those
   * of all statements together.
   */
  public static SqlWork transaction(List<Bound> statements) {
    return new Transaction(List.copyOf(statements));
  }

  /** Statements run as one transaction, as {@link #transaction(List)} makes them. */
  public record Transaction(List<Bound> statements) implements SqlWork {
    @Override
    public SqlResult run(Connection connection) throws SQLException {
      connection.setAutoCommit(false);
      long rows = 0;
      try {
        for (Bound statement : statements) {
          rows += execute(connection, statement.sql(), statement.params(), Set.of(), 0).rows();
        }
        connection.commit();
      } catch (SQLException e) {
        rollbackQuietly(connection, e);
        throw e;
      }
      return new SqlResult(rows, Map.of());
    }
  }

  /** One statement executed for each set of parameters as a JDBC batch. Rows: those affected. */
  public static SqlWork batch(String sql, List<Object[]> parameterSets) {
    return new Batch(sql, new ArrayList<>(parameterSets));
  }

  /** One statement and its sets of parameters, as {@link #batch(String, List)} makes them. */
  public record Batch(String sql, List<Object[]> parameterSets) implements SqlWork {
    @Override
    public SqlResult run(Connection connection) throws SQLException {
      try (PreparedStatement statement = connection.prepareStatement(sql)) {
        for (Object[] params : parameterSets) {
          JdbcValues.bind(statement, params);
          statement.addBatch();
        }
        long rows = 0;
        for (int count : statement.executeBatch()) {
          rows += Math.max(0, count);
        }
        return new SqlResult(rows, Map.of());
      }
    }
  }

  private static SqlResult execute(
      Connection connection, String sql, Object[] params, Set<String> capture, int fetchSize)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      JdbcValues.bind(statement, params);
      if (fetchSize > 0) {
        statement.setFetchSize(fetchSize);
      }
      if (!statement.execute()) {
        return new SqlResult(Math.max(0, statement.getUpdateCount()), Map.of());
      }
      try (ResultSet results = statement.getResultSet()) {
        long rows = 0;
        Map<String, Object> firstRow = Map.of();
        boolean all = capture.contains(SqlResult.ALL_ROWS);
        List<Map<String, Object>> allRows = all ? new ArrayList<>() : List.of();
        while (results.next()) {
          if (rows == 0 && !capture.isEmpty()) {
            firstRow = capture(results, capture);
          }
          if (all) {
            allRows.add(row(results));
          }
          rows++;
        }
        return new SqlResult(rows, firstRow, allRows);
      }
    }
  }

  /** Every column of the current row, by lower-case label, in column order. */
  private static Map<String, Object> row(ResultSet row) throws SQLException {
    ResultSetMetaData meta = row.getMetaData();
    Map<String, Object> values = new LinkedHashMap<>();
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      values.put(meta.getColumnLabel(i).toLowerCase(Locale.ROOT), row.getObject(i));
    }
    return Collections.unmodifiableMap(values);
  }

  private static Map<String, Object> capture(ResultSet row, Set<String> columns)
      throws SQLException {
    Map<String, Object> values = new HashMap<>();
    ResultSetMetaData meta = row.getMetaData();
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      String label = meta.getColumnLabel(i).toLowerCase(Locale.ROOT);
      String position = SqlResult.columnAt(i);
      if (columns.contains(label) || columns.contains(position)) {
        Object value = row.getObject(i);
        values.put(label, value);
        values.put(position, value);
      }
    }
    return values;
  }

  private static void rollbackQuietly(Connection connection, SQLException failure) {
    try {
      connection.rollback();
    } catch (SQLException rollbackFailed) {
      failure.addSuppressed(rollbackFailed);
    }
  }
}
