package io.fusillade.sql.pg;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.HexFormat;

/**
 * Parameter values as PostgreSQL's text format has them, and result values back: what JDBC's {@code
 * setObject} and {@code getObject} would give for the common types.
 */
final class PgValues {
  private static final int BOOL = 16;
  private static final int INT8 = 20;
  private static final int INT2 = 21;
  private static final int INT4 = 23;
  private static final int FLOAT4 = 700;
  private static final int FLOAT8 = 701;
  private static final int NUMERIC = 1700;

  private PgValues() {}

  /**
   * The text of a parameter, or null for SQL NULL. Numbers, booleans, dates and times (ISO 8601),
   * UUIDs and strings are written as PostgreSQL reads them; {@code byte[]} as bytea's hex form;
   * arrays and collections as array literals ({@code {1,2,3}}) for {@code = any($1)}.
   */
  static String text(Object value) {
    if (value == null || value instanceof String) {
      return (String) value;
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      return value.toString();
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    if (value instanceof byte[] bytes) {
      return "\\x" + HexFormat.of().formatHex(bytes);
    }
    if (value instanceof Object[] array) {
      return array(java.util.Arrays.asList(array));
    }
    if (value instanceof Collection<?> collection) {
      return array(collection);
    }
    return value.toString(); // Boolean, Double, Instant, LocalDate..., UUID, Character
  }

  private static String array(Collection<?> elements) {
    StringBuilder literal = new StringBuilder("{");
    for (Object element : elements) {
      if (literal.length() > 1) {
        literal.append(',');
      }
      String text = text(element);
      if (text == null) {
        literal.append("NULL");
      } else {
        literal.append('"');
        for (int i = 0; i < text.length(); i++) {
          char c = text.charAt(i);
          if (c == '"' || c == '\\') {
            literal.append('\\');
          }
          literal.append(c);
        }
        literal.append('"');
      }
    }
    return literal.append('}').toString();
  }

  /** A result column's text as the Java value JDBC would give for its type (text otherwise). */
  static Object value(String text, int typeOid) {
    if (text == null) {
      return null;
    }
    return switch (typeOid) {
      case BOOL -> text.equals("t");
      case INT2, INT4 -> Integer.valueOf(text);
      case INT8 -> Long.valueOf(text);
      case FLOAT4, FLOAT8 -> Double.valueOf(text);
      case NUMERIC -> text.equals("NaN") ? Double.NaN : new BigDecimal(text);
      default -> text;
    };
  }
}
