package io.fusillade.sql;

/**
 * Counts the parameter placeholders of a SQL text: numbered {@code $1}-style (Picostress,
 * PostgreSQL) or positional {@code ?} (JDBC). Placeholders inside string literals, quoted
 * identifiers, dollar-quoted bodies and comments do not count; {@code ::type} casts are left alone.
 *
 * @param highestNumbered the highest n of the {@code $n} placeholders, 0 if none
 * @param positional the number of {@code ?} placeholders
 */
public record SqlPlaceholders(int highestNumbered, int positional) {

  /**
   * @return the number of parameters the statement takes
   */
  public int count() {
    return Math.max(highestNumbered, positional);
  }

  /**
   * @return whether both styles appear, which no driver accepts
   */
  public boolean mixed() {
    return highestNumbered > 0 && positional > 0;
  }

  /**
   * @param sql a SQL statement
   * @return its placeholders
   */
  public static SqlPlaceholders of(String sql) {
    int[] found = new int[2]; // highest numbered, positional
    scan(
        sql,
        (start, end, number) -> {
          if (number == 0) {
            found[1]++;
          } else {
            found[0] = Math.max(found[0], number);
          }
        });
    return new SqlPlaceholders(found[0], found[1]);
  }

  /**
   * A statement ready for JDBC: {@code $n} placeholders replaced by {@code ?}, with the order in
   * which the parameters must be bound ({@code $2 ... $1} binds the second value first).
   *
   * @param sql the statement with {@code ?} placeholders only
   * @param order for each {@code ?}, in order, the 0-based index of the value it takes
   */
  public record Jdbc(String sql, int[] order) {

    /** The values in binding order. */
    public Object[] bind(Object[] values) {
      Object[] bound = new Object[order.length];
      for (int i = 0; i < order.length; i++) {
        bound[i] = values[order[i]];
      }
      return bound;
    }
  }

  /**
   * Rewrites {@code $n} placeholders (Picostress, PostgreSQL) as JDBC's {@code ?}; {@code ?}
   * placeholders are kept and bound in order. Literals, quoted identifiers, dollar-quoted bodies,
   * comments and {@code ::type} casts are left as they are.
   */
  public static Jdbc toJdbc(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    java.util.List<Integer> order = new java.util.ArrayList<>();
    int[] copied = {0};
    scan(
        sql,
        (start, end, number) -> {
          out.append(sql, copied[0], start).append('?');
          order.add(number == 0 ? order.size() : number - 1);
          copied[0] = end;
        });
    out.append(sql, copied[0], sql.length());
    return new Jdbc(out.toString(), order.stream().mapToInt(Integer::intValue).toArray());
  }

  /**
   * Rewrites a statement's {@code ?} placeholders as PostgreSQL's {@code $1, $2, ...} in order, for
   * clients that speak PostgreSQL's protocol: {@code toNumbered(toJdbc(sql).sql())} takes the
   * values of {@link Jdbc#bind}. Literals, identifiers, comments and casts are left alone.
   */
  public static String toNumbered(String jdbcSql) {
    StringBuilder out = new StringBuilder(jdbcSql.length() + 8);
    int[] state = {0, 0}; // copied up to, placeholders seen
    scan(
        jdbcSql,
        (start, end, number) -> {
          out.append(jdbcSql, state[0], start).append('$').append(++state[1]);
          state[0] = end;
        });
    return out.append(jdbcSql, state[0], jdbcSql.length()).toString();
  }

  /** Receives each placeholder: its span, and n for {@code $n} or 0 for {@code ?}. */
  private interface Placeholder {
    void at(int start, int end, int number);
  }

  private static void scan(String sql, Placeholder placeholder) {
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        i = skipQuoted(sql, i, c);
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? n : end + 1;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (c == '?') {
        placeholder.at(i, i + 1, 0);
        i++;
      } else if (c == '$') {
        int j = i + 1;
        while (j < n && Character.isDigit(sql.charAt(j))) {
          j++;
        }
        if (j > i + 1) {
          placeholder.at(i, j, parseNumber(sql.substring(i + 1, j)));
          i = j;
        } else {
          i = skipDollarQuoted(sql, i);
        }
      } else {
        i++;
      }
    }
  }

  private static int parseNumber(String digits) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE;
    }
  }

  /**
   * Skips 'text' or "identifier"; a doubled quote is an escaped quote.
   *
   * @return the index after the closing quote, or the text's length
   */
  public static int skipQuoted(String sql, int start, char quote) {
    int i = start + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return i;
  }

  /**
   * Skips a PostgreSQL $tag$ ... $tag$ body; a lone $ is just a character.
   *
   * @return the index after the closing tag, or the text's length
   */
  public static int skipDollarQuoted(String sql, int start) {
    int j = start + 1;
    while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
      j++;
    }
    if (j >= sql.length() || sql.charAt(j) != '$') {
      return start + 1;
    }
    String tag = sql.substring(start, j + 1);
    int end = sql.indexOf(tag, j + 1);
    return end < 0 ? sql.length() : end + tag.length();
  }
}
