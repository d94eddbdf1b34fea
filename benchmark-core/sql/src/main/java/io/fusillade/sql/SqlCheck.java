package io.fusillade.sql;

import java.util.Objects;
import java.util.Set;

/**
 * A check of a statement's result. A failed check makes the request KO with its message.
 *
 * <pre>{@code
 * SqlCheck.rowCount(1)            // exactly one row
 * SqlCheck.rowCountBetween(1, 50)
 * SqlCheck.column("status", "paid") // the first row's column
 * }</pre>
 */
public interface SqlCheck {

  /** Null when the result passes, else a short failure message. */
  String verify(SqlResult result);

  /** Columns of the first row this check needs (read from the result set, nothing else is). */
  default Set<String> columns() {
    return Set.of();
  }

  static SqlCheck rowCount(long expected) {
    return result ->
        result.rows() == expected ? null : "expected " + expected + " rows, got " + result.rows();
  }

  static SqlCheck rowCountBetween(long min, long max) {
    return result ->
        result.rows() >= min && result.rows() <= max
            ? null
            : "expected " + min + " to " + max + " rows, got " + result.rows();
  }

  /**
   * The first row's {@code column} equals {@code expected}, compared as text (so that {@code 42}
   * matches an {@code int}, {@code bigint} or {@code numeric} column).
   */
  static SqlCheck column(String column, Object expected) {
    String name = column.toLowerCase(java.util.Locale.ROOT);
    return new SqlCheck() {
      @Override
      public String verify(SqlResult result) {
        if (result.rows() == 0) {
          return "expected " + column + " = " + expected + ", got no row";
        }
        Object actual = result.firstRow().get(name);
        return Objects.equals(String.valueOf(actual), String.valueOf(expected))
            ? null
            : "expected " + column + " = " + expected + ", got " + actual;
      }

      @Override
      public Set<String> columns() {
        return Set.of(name);
      }
    };
  }
}
