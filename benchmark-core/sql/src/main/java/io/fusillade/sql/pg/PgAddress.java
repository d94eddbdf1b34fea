package io.fusillade.sql.pg;

import io.fusillade.sql.JdbcUrls;
import io.fusillade.sql.SqlClientOptions;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Where and as whom the native engine connects, read from a PostgreSQL JDBC URL ({@code
 * jdbc:postgresql://host:port/database?user=...&password=...}) and the protocol's user and
 * password, which win over the URL's.
 *
 * @param label host:port/database, for messages and reports (never the password)
 */
record PgAddress(
    String host, int port, String database, String user, String password, String label) {

  /**
   * @throws IllegalArgumentException naming the URL (password masked) when it is not a single-host
   *     PostgreSQL URL, or asks for TLS, which the native engine does not speak
   */
  static PgAddress of(SqlClientOptions options) {
    String url = options.url();
    String shown = JdbcUrls.mask(url);
    String rest;
    if (url.startsWith("jdbc:postgresql://")) {
      rest = url.substring("jdbc:postgresql://".length());
    } else if (url.startsWith("postgresql://") || url.startsWith("postgres://")) {
      rest = url.substring(url.indexOf("//") + 2);
    } else {
      throw new IllegalArgumentException(
          "the native engine speaks PostgreSQL's protocol and needs a jdbc:postgresql:// URL, not "
              + shown);
    }
    String query = "";
    int question = rest.indexOf('?');
    if (question >= 0) {
      query = rest.substring(question + 1);
      rest = rest.substring(0, question);
    }
    String userInfo = null;
    int at = rest.lastIndexOf('@');
    if (at >= 0) {
      userInfo = rest.substring(0, at);
      rest = rest.substring(at + 1);
    }
    int slash = rest.indexOf('/');
    String hostPort = slash < 0 ? rest : rest.substring(0, slash);
    String database = slash < 0 ? "" : decode(rest.substring(slash + 1));
    if (hostPort.contains(",")) {
      throw new IllegalArgumentException(
          "the native engine takes one host per URL (give each node its own URL): " + shown);
    }
    String host = hostPort;
    int port = 5432;
    int colon = hostPort.lastIndexOf(':');
    if (colon >= 0 && !hostPort.endsWith("]")) {
      host = hostPort.substring(0, colon);
      try {
        port = Integer.parseInt(hostPort.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("bad port in " + shown, e);
      }
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (host.isEmpty()) {
      host = "localhost";
    }
    Map<String, String> parameters = parameters(query);
    String ssl = parameters.getOrDefault("sslmode", "").toLowerCase(Locale.ROOT);
    if (parameters.getOrDefault("ssl", "false").equalsIgnoreCase("true")
        || ssl.equals("require")
        || ssl.startsWith("verify")) {
      throw new IllegalArgumentException(
          "the native engine does not speak TLS; use the JDBC engine for " + shown);
    }
    String user = options.user();
    String password = options.password();
    if (userInfo != null) {
      int split = userInfo.indexOf(':');
      user = user != null ? user : decode(split < 0 ? userInfo : userInfo.substring(0, split));
      if (password == null && split >= 0) {
        password = decode(userInfo.substring(split + 1));
      }
    }
    user = user != null ? user : parameters.get("user");
    password = password != null ? password : parameters.get("password");
    if (user == null || user.isEmpty()) {
      user = System.getProperty("user.name");
    }
    if (database.isEmpty()) {
      database = user;
    }
    String label = host + ":" + port + "/" + database;
    return new PgAddress(host, port, database, user, password, label);
  }

  private static Map<String, String> parameters(String query) {
    Map<String, String> parameters = new LinkedHashMap<>();
    for (String pair : query.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int equals = pair.indexOf('=');
      String key = decode(equals < 0 ? pair : pair.substring(0, equals));
      parameters.put(
          key.toLowerCase(Locale.ROOT), equals < 0 ? "" : decode(pair.substring(equals + 1)));
    }
    return parameters;
  }

  private static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }

  /** Never shows the password. */
  @Override
  public String toString() {
    return "PgAddress[" + user + "@" + label + "]";
  }
}
