package io.fusillade.sql;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Binds generated values to JDBC parameters, converting the types drivers do not all accept. */
public final class JdbcValues {
  private JdbcValues() {}

  /** Binds {@code values} to the statement's parameters 1..n. */
  public static void bind(PreparedStatement statement, Object[] values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      statement.setObject(i + 1, toJdbc(values[i]));
    }
  }

  /**
   * The value as JDBC 4.2 drivers accept it: an {@link Instant} (a generated datetime) becomes an
   * {@link OffsetDateTime} in UTC, which PostgreSQL's driver binds as {@code timestamptz}.
   */
  public static Object toJdbc(Object value) {
    if (value instanceof Instant instant) {
      return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
    return value;
  }
}
