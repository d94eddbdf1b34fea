package io.fusillade.workload;

import io.fusillade.gen.ValueSpec;

/**
 * A column the database computes from the others of its row ({@code generated always as (...)
 * stored}), not filled by the generator: a dimension's attributes derived from its key and kept
 * consistent with it ({@code d_year} from {@code d_date}, a category's name from its id).
 *
 * @param type the column's name and type (and decimal precision and scale), as a value spec
 * @param expression the SQL expression over the row's other columns, in the database's dialect
 */
public record GeneratedColumn(ValueSpec type, String expression) {

  /**
   * @return the column's name
   */
  public String name() {
    return type.name();
  }
}
