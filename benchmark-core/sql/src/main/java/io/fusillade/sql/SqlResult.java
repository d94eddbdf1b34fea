package io.fusillade.sql;

import java.util.Map;

/**
 * What a statement returned, as far as checks need it: the rows read or affected, and the values of
 * the first row's columns that a check asked for (no other row is kept), by lower-case name or by
 * position ({@link #columnAt}).
 */
public record SqlResult(long rows, Map<String, Object> firstRow) {
  static final SqlResult NONE = new SqlResult(0, Map.of());

  /**
   * The key under which a check asks for, and {@link #firstRow} holds, the column at {@code index}
   * (from 1): {@code "#2"} for the second.
   */
  public static String columnAt(int index) {
    return "#" + index;
  }
}
