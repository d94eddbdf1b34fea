package io.fusillade.workload.schema;

import io.fusillade.gen.ValueSpec;
import java.util.Locale;

/**
 * How a database spells column types. PostgreSQL (and what speaks its protocol: Picodata's
 * PostgreSQL port, Greenplum/Arenadata, YugabyteDB, CockroachDB) gets its own types; any other JDBC
 * database gets the standard ones.
 */
public enum Dialect {
  POSTGRESQL,
  GENERIC;

  /** The dialect of a JDBC URL. */
  public static Dialect of(String jdbcUrl) {
    String url = jdbcUrl.toLowerCase(Locale.ROOT);
    return url.startsWith("jdbc:postgresql:") || url.startsWith("jdbc:pgsql:")
        ? POSTGRESQL
        : GENERIC;
  }

  /** The column type for values of {@code spec}. */
  public String columnType(ValueSpec spec) {
    boolean pg = this == POSTGRESQL;
    return switch (spec.type()) {
      case INTEGER -> "integer";
      case LONG -> "bigint";
      case DECIMAL -> "numeric(" + spec.precision() + ", " + spec.scale() + ")";
      case DOUBLE -> "double precision";
      case STRING -> pg ? "text" : "varchar(" + Math.max(1, spec.maxLength()) + ")";
      case DATETIME -> pg ? "timestamptz" : "timestamp";
      case DATE -> "date";
      case BOOLEAN -> "boolean";
      case UUID -> pg ? "uuid" : "char(36)";
      case CONSTANT, CHOICE -> pg ? "text" : "varchar(255)";
    };
  }
}
