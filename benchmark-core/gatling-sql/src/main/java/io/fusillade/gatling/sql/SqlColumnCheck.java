package io.fusillade.gatling.sql;

import io.fusillade.sql.SqlCheck;
import io.fusillade.sql.SqlResult;
import java.util.Locale;
import java.util.Set;

/**
 * A check on a column of the result's first row that can save the column's value in the virtual
 * user's session, for the next requests to use ({@code "#{key}"}). Immutable.
 *
 * <pre>{@code
 * sql("new order").query("insert into orders(customer) values (?) returning id")
 *     .params("#{customer}").check(column("id").saveAs("orderId"))
 * sql("order").query("select status from orders where id = ?").params("#{orderId}")
 *     .check(column("status").is("new"))
 * }</pre>
 *
 * <p>Without {@link #is} it only asks for a first row. A value is saved only when every check of
 * the request passed; a SQL {@code NULL} removes the attribute.
 */
public final class SqlColumnCheck implements SqlCheck {
  private final String column;
  private final SqlCheck condition;
  private final String saveAs;

  private SqlColumnCheck(String column, SqlCheck condition, String saveAs) {
    this.column = column;
    this.condition = condition;
    this.saveAs = saveAs;
  }

  /** Any value of {@code column} in a first row. */
  static SqlColumnCheck of(String column) {
    if (column == null || column.isBlank()) {
      throw new IllegalArgumentException("a column check needs a column name");
    }
    return new SqlColumnCheck(column.toLowerCase(Locale.ROOT), null, null);
  }

  /** The first row's column equals {@code expected}, compared as text. */
  public SqlColumnCheck is(Object expected) {
    return new SqlColumnCheck(column, SqlCheck.column(column, expected), saveAs);
  }

  /** Saves the column's value in the session as attribute {@code key} when the request is OK. */
  public SqlColumnCheck saveAs(String key) {
    if (key == null || key.isBlank()) {
      throw new IllegalArgumentException("saveAs needs an attribute name");
    }
    return new SqlColumnCheck(column, condition, key);
  }

  /** The column, lower-cased as results name them. */
  String column() {
    return column;
  }

  /** The session attribute the value goes to, or null. */
  String savedAs() {
    return saveAs;
  }

  @Override
  public String verify(SqlResult result) {
    if (condition != null) {
      return condition.verify(result);
    }
    return result.rows() == 0 ? "expected a row with column " + column + ", got no row" : null;
  }

  @Override
  public Set<String> columns() {
    return Set.of(column);
  }

  @Override
  public String toString() {
    return "column(" + column + ")" + (saveAs == null ? "" : ".saveAs(" + saveAs + ")");
  }
}
