package io.fusillade.sql;

import java.util.Map;

/**
 * What a statement returned, as far as checks need it: the rows read or affected, and the values of
 * the first row's columns that a check asked for (no other row is kept).
 */
public record SqlResult(long rows, Map<String, Object> firstRow) {
  static final SqlResult NONE = new SqlResult(0, Map.of());
}
