package io.fusillade.workload.schema;

import io.fusillade.gen.ValueSpec;
import io.fusillade.workload.Index;
import io.fusillade.workload.Table;
import java.util.ArrayList;
import java.util.List;

/** The statements that create and drop a workload's tables and indexes. */
public final class SchemaDdl {
  private SchemaDdl() {}

  public static String createTable(Table table, Dialect dialect) {
    List<String> parts = new ArrayList<>();
    for (ValueSpec column : table.columns()) {
      boolean notNull = column.nullPercentage() == 0 || table.primaryKeys().contains(column.name());
      parts.add(
          quote(column.name()) + " " + dialect.columnType(column) + (notNull ? " not null" : ""));
    }
    if (!table.primaryKeys().isEmpty()) {
      parts.add(
          "primary key ("
              + String.join(", ", table.primaryKeys().stream().map(SchemaDdl::quote).toList())
              + ")");
    }
    return "create table " + quote(table.name()) + " (" + String.join(", ", parts) + ")";
  }

  public static String createIndex(Index index) {
    return "create "
        + (index.unique() ? "unique " : "")
        + "index "
        + quote(index.name())
        + " on "
        + quote(index.table())
        + " ("
        + String.join(", ", index.columns().stream().map(SchemaDdl::quote).toList())
        + ")";
  }

  public static String dropTable(Table table) {
    return "drop table if exists " + quote(table.name());
  }

  /** A quoted identifier only where needed, so plain names stay readable in the database. */
  static String quote(String identifier) {
    return identifier.matches("[a-z_][a-z0-9_]*")
        ? identifier
        : '"' + identifier.replace("\"", "\"\"") + '"';
  }
}
