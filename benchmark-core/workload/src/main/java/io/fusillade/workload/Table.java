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
 * @param generated the columns the database computes from the others ({@code generated:}), created
 *     after the generated ones and never filled
 */
public record Table(
    String name,
    long rowCount,
    List<ValueSpec> columns,
    List<String> primaryKeys,
    Map<String, Object> vendorOptions,
    List<GeneratedColumn> generated) {

  /** Copies the collections. */
  public Table {
    columns = List.copyOf(columns);
    primaryKeys = List.copyOf(primaryKeys);
    vendorOptions = Collections.unmodifiableMap(new LinkedHashMap<>(vendorOptions));
    generated = generated == null ? List.of() : List.copyOf(generated);
  }

  /** A table without generated columns. */
  public Table(
      String name,
      long rowCount,
      List<ValueSpec> columns,
      List<String> primaryKeys,
      Map<String, Object> vendorOptions) {
    this(name, rowCount, columns, primaryKeys, vendorOptions, List.of());
  }

  /**
   * @param columnName a column name
   * @return the column of that name
   */
  public Optional<ValueSpec> column(String columnName) {
    return columns.stream().filter(c -> c.name().equals(columnName)).findFirst();
  }
}
