package io.fusillade;

import java.util.regex.Pattern;

/**
 * What Fusillade never shows: a password in a URL. Every URL that reaches a message, a log line, a
 * report or a record goes through {@link #mask} first: JDBC URLs ({@code password=}), HTTP URLs
 * with a {@code user:password@} part, InfluxDB 1.x write URLs ({@code p=}), and tokens in query
 * strings ({@code token=}, {@code apikey=}, {@code secret=}).
 */
public final class Secrets {
  private static final Pattern SECRET_PARAMETER =
      Pattern.compile(
          "(?i)([?&;](?:password|passwd|pwd|sslpassword|p|token|api[_-]?key|secret|access[_-]?key)=)[^&;#]*");
  private static final Pattern USER_INFO = Pattern.compile("(//[^/@:?#]*:)[^/@?#]*@");

  private Secrets() {}

  /**
   * The URL with every password and token replaced by {@code ***}: the value of a secret query
   * parameter, and the password of a {@code user:password@} part (the user stays).
   *
   * @param url a URL of any kind, or null
   * @return the masked URL, or null
   */
  public static String mask(String url) {
    if (url == null) {
      return null;
    }
    String masked = SECRET_PARAMETER.matcher(url).replaceAll("$1***");
    return USER_INFO.matcher(masked).replaceAll("$1***@");
  }

  /** Whether the URL holds something {@link #mask} hides. */
  public static boolean holdsSecret(String url) {
    return url != null && !mask(url).equals(url);
  }
}
