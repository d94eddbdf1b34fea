package io.fusillade.workload;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A secondary index of a workload.
 *
 * @param name the index name
 * @param table the indexed table
 * @param columns the indexed columns, in order
 * @param unique whether the index is unique
 * @param vendorOptions engine-specific keys ({@code type}, {@code options}, {@code timeout})
 */
public record Index(
    String name,
    String table,
    List<String> columns,
    boolean unique,
    Map<String, Object> vendorOptions) {

  /** Copies the collections. */
  public Index {
    columns = List.copyOf(columns);
    vendorOptions = Collections.unmodifiableMap(new LinkedHashMap<>(vendorOptions));
  }
}
