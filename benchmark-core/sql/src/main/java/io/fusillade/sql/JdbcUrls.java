package io.fusillade.sql;

import java.util.regex.Pattern;

/** JDBC URLs as they may be shown to a user: with every password masked. */
public final class JdbcUrls {
  private static final Pattern PASSWORD_PARAMETER =
      Pattern.compile("(?i)((?:password|passwd|pwd|sslpassword)=)[^&;]*");
  private static final Pattern USER_INFO = Pattern.compile("(//[^/@:]*:)[^/@]*@");

  private JdbcUrls() {}

  /**
   * The URL with any password masked: query parameters such as {@code password=...} and the {@code
   * user:password@} part of the authority.
   */
  public static String mask(String url) {
    if (url == null) {
      return null;
    }
    String masked = PASSWORD_PARAMETER.matcher(url).replaceAll("$1***");
    return USER_INFO.matcher(masked).replaceAll("$1***@");
  }
}
