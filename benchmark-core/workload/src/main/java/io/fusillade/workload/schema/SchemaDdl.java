package io.fusillade.workload.schema;

import io.fusillade.gen.ValueSpec;
import io.fusillade.workload.GeneratedColumn;
import io.fusillade.workload.Index;
import io.fusillade.workload.Table;
import java.util.ArrayList;
import java.util.List;

/**
 * The statements that create and drop a workload's tables and indexes, with the vendor keys the
 * dialect honours ({@link VendorDdl}).
 */
public final class SchemaDdl {
  private SchemaDdl() {}

  public static String createTable(Table table, Dialect dialect) {
    List<String> parts = new ArrayList<>();
    for (ValueSpec column : table.columns()) {
      boolean notNull = column.nullPercentage() == 0 || table.primaryKeys().contains(column.name());
      parts.add(
          quote(column.name()) + " " + dialect.columnType(column) + (notNull ? " not null" : ""));
    }
    for (GeneratedColumn column : table.generated()) {
      // SQL:2003's syntax, PostgreSQL's since 12 (and MySQL's): computed on every write
      parts.add(
          quote(column.name())
              + " "
              + dialect.columnType(column.type())
              + " generated always as ("
              + column.expression()
              + ") stored");
    }
    if (!table.primaryKeys().isEmpty()) {
      parts.add(
          "primary key ("
              + String.join(", ", table.primaryKeys().stream().map(SchemaDdl::quote).toList())
              + ")");
    }
    return "create table "
        + quote(table.name())
        + " ("
        + String.join(", ", parts)
        + ")"
        + VendorDdl.table(table, dialect).clauses();
  }

  /** The index in the standard form, without vendor keys. */
  public static String createIndex(Index index) {
    return createIndex(index, Dialect.GENERIC);
  }

  /** The index with the vendor keys {@code dialect} honours ({@link VendorDdl}). */
  public static String createIndex(Index index, Dialect dialect) {
    VendorDdl vendor = VendorDdl.index(index, dialect);
    return "create "
        + (index.unique() ? "unique " : "")
        + "index "
        + quote(index.name())
        + " on "
        + quote(index.table())
        + vendor.using()
        + " ("
        + String.join(", ", index.columns().stream().map(SchemaDdl::quote).toList())
        + ")"
        + vendor.clauses();
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
