package io.fusillade.workload;

import io.fusillade.gen.ValueSpec;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table of a workload: its columns and how many rows to fill it with.
 *
 * @param name the table name
 * @param rowCount the number of rows
 * @param columns the columns, in order
 * @param primaryKeys the primary-key column names
 * @param vendorOptions engine-specific keys ({@code engine}, {@code tier}, {@code
 *     distribution_keys}, {@code timeout}) as plain values, for a dialect to use or ignore
 */
public record Table(
    String name,
    long rowCount,
    List<ValueSpec> columns,
    List<String> primaryKeys,
    Map<String, Object> vendorOptions) {

  /** Copies the collections. */
  public Table {
    columns = List.copyOf(columns);
    primaryKeys = List.copyOf(primaryKeys);
    vendorOptions = Collections.unmodifiableMap(new LinkedHashMap<>(vendorOptions));
  }

  /**
   * @param columnName a column name
   * @return the column of that name
   */
  public Optional<ValueSpec> column(String columnName) {
    return columns.stream().filter(c -> c.name().equals(columnName)).findFirst();
  }
}
