package io.fusillade.sql;

import java.util.List;
import java.util.Map;

/**
 * What a statement returned, as far as checks need it: the rows read or affected, and the values of
 * the first row's columns that a check asked for, by lower-case name or by position ({@link
 * #columnAt}); every row only when a check asked for them all ({@link #ALL_ROWS}).
 *
 * @param allRows every row read, each by lower-case column label in column order, when a check
 *     asked for {@link #ALL_ROWS}; else empty
 */
public record SqlResult(
    long rows, Map<String, Object> firstRow, List<Map<String, Object>> allRows) {
  static final SqlResult NONE = new SqlResult(0, Map.of());

  /** What a check asks for, among the columns it needs, to be given every row. */
  public static final String ALL_ROWS = "*rows";

  /** Copies. */
  public SqlResult {
    allRows = List.copyOf(allRows);
  }

  /** Without the rows. */
  public SqlResult(long rows, Map<String, Object> firstRow) {
    this(rows, firstRow, List.of());
  }

  /**
   * The key under which a check asks for, and {@link #firstRow} holds, the column at {@code index}
   * (from 1): {@code "#2"} for the second.
   */
  public static String columnAt(int index) {
    return "#" + index;
  }
}
