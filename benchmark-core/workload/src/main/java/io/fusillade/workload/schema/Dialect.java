package io.fusillade.workload.schema;

import io.fusillade.gen.ValueSpec;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * How a database spells column types and vendor DDL ({@link VendorDdl}). PostgreSQL and what speaks
 * its protocol (YugabyteDB, CockroachDB...) get PostgreSQL's; Greenplum/Arenadata adds {@code
 * DISTRIBUTED BY} and bitmap indexes; Picodata (the database Picostress' vendor keys come from) its
 * engines, tiers, sharding keys and DDL timeouts; any other JDBC database gets the standard types
 * and no vendor DDL.
 */
public enum Dialect {
  POSTGRESQL("PostgreSQL"),
  GREENPLUM("Greenplum"),
  PICODATA("Picodata"),
  GENERIC("this database");

  private final String displayName;

  Dialect(String displayName) {
    this.displayName = displayName;
  }

  /**
   * The name in messages.
   *
   * @return e.g. {@code PostgreSQL}
   */
  public String displayName() {
    return displayName;
  }

  /** The dialect of a JDBC URL, before connecting: PostgreSQL's protocol or not. */
  public static Dialect of(String jdbcUrl) {
    String url = jdbcUrl.toLowerCase(Locale.ROOT);
    return url.startsWith("jdbc:postgresql:") || url.startsWith("jdbc:pgsql:")
        ? POSTGRESQL
        : GENERIC;
  }

  /**
   * The dialect of a connected server: a PostgreSQL-protocol server says in {@code version()}
   * whether it is Greenplum or Picodata; otherwise as {@link #of(String)}.
   *
   * @param connection an open connection
   * @param jdbcUrl its URL
   * @return the dialect
   */
  public static Dialect detect(Connection connection, String jdbcUrl) {
    Dialect byUrl = of(jdbcUrl);
    if (byUrl != POSTGRESQL) {
      return byUrl;
    }
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("select version()")) {
      String version = rs.next() ? rs.getString(1).toLowerCase(Locale.ROOT) : "";
      if (version.contains("greenplum")) {
        return GREENPLUM;
      }
      if (version.contains("picodata")) {
        return PICODATA;
      }
    } catch (SQLException e) {
      // a server without version(): keep the protocol's dialect
    }
    return byUrl;
  }

  /** Whether DDL runs in a transaction that can be rolled back. */
  boolean transactional() {
    return this == POSTGRESQL || this == GREENPLUM;
  }

  /** The column type for values of {@code spec}. */
  public String columnType(ValueSpec spec) {
    if (this == PICODATA) {
      return switch (spec.type()) {
        case INTEGER, LONG -> "integer";
        case DECIMAL -> "decimal";
        case DOUBLE -> "double";
        case STRING, CONSTANT, CHOICE -> "text";
        case DATETIME, DATE -> "datetime";
        case BOOLEAN -> "boolean";
        case UUID -> "uuid";
      };
    }
    boolean pg = this == POSTGRESQL || this == GREENPLUM;
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
