package io.fusillade.workload;

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
    int highest = 0;
    int positional = 0;
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
        positional++;
        i++;
      } else if (c == '$') {
        int j = i + 1;
        while (j < n && Character.isDigit(sql.charAt(j))) {
          j++;
        }
        if (j > i + 1) {
          highest = Math.max(highest, parseNumber(sql.substring(i + 1, j)));
          i = j;
        } else {
          i = skipDollarQuoted(sql, i);
        }
      } else {
        i++;
      }
    }
    return new SqlPlaceholders(highest, positional);
  }

  private static int parseNumber(String digits) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE;
    }
  }

  /** Skips 'text' or "identifier"; a doubled quote is an escaped quote. */
  private static int skipQuoted(String sql, int start, char quote) {
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

  /** Skips a PostgreSQL $tag$ ... $tag$ body; a lone $ is just a character. */
  private static int skipDollarQuoted(String sql, int start) {
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
