package io.fusillade.sql;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** JDBC URLs as they may be shown to a user (every password masked), and the node they name. */
public final class JdbcUrls {

  /** jdbc:scheme[:more]://[user[:password]@]host[:port]..., the host possibly in brackets. */
  private static final Pattern AUTHORITY =
      Pattern.compile(
          "^jdbc:([a-z0-9]+)(?::[a-z0-9]+)*://(?:[^/@?;]*@)?(\\[[^\\]]+\\]|[^/:?;,]+)(?::(\\d+))?([/?;]|$)",
          Pattern.CASE_INSENSITIVE);

  /** The ports of the databases whose URLs may leave the port out. */
  private static final Map<String, Integer> DEFAULT_PORTS =
      Map.of(
          "postgresql", 5432,
          "pgsql", 5432,
          "mysql", 3306,
          "mariadb", 3306,
          "sqlserver", 1433,
          "clickhouse", 8123,
          "db2", 50000);

  private JdbcUrls() {}

  /**
   * The {@code host:port} a JDBC URL connects to, for probing the node over TCP and for naming it
   * in reasons and events ("connection refused: 127.0.0.1:5432"); never with credentials.
   *
   * @param url a JDBC URL such as {@code jdbc:postgresql://db1:5432/app?user=app}
   * @return {@code host:port}, or null when the URL names no single host with a known port (an
   *     in-memory database, several hosts in one URL, a driver whose URL has another shape)
   */
  public static String hostPort(String url) {
    if (url == null) {
      return null;
    }
    Matcher m = AUTHORITY.matcher(url.strip());
    if (!m.find()) {
      return null;
    }
    String host = m.group(2);
    Integer port =
        m.group(3) != null
            ? Integer.valueOf(m.group(3))
            : DEFAULT_PORTS.get(m.group(1).toLowerCase(Locale.ROOT));
    return port == null ? null : host + ":" + port;
  }

  /**
   * The URL with any password masked: query parameters such as {@code password=...} and the {@code
   * user:password@} part of the authority.
   */
  public static String mask(String url) {
    return io.fusillade.Secrets.mask(url);
  }
}
