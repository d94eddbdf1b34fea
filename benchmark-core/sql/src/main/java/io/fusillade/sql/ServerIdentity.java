package io.fusillade.sql;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the database under test is, read from it at the start of a run for {@code run.json}: its
 * product and version and, on PostgreSQL, every setting changed from its default (the configuration
 * file, the command line, {@code ALTER SYSTEM}, per database or role). Two runs that differ in a
 * setting then say so when compared ({@code fusillade compare} lists the parameters that differ),
 * instead of a team wondering why the candidate is faster.
 *
 * <p>Left out: settings that differ from one start of the same server to the next without changing
 * what it does (its port, its directories and files), what the client session set for itself, and
 * secrets (a passphrase command; a password in a connection string is replaced by {@code ***}).
 */
public final class ServerIdentity {
  /** Settings that name where a server is rather than how it works. */
  private static final Set<String> LOCATION_SETTINGS =
      Set.of(
          "port",
          "data_directory",
          "config_file",
          "hba_file",
          "ident_file",
          "external_pid_file",
          "unix_socket_directories",
          "log_directory",
          "log_filename",
          "application_name");

  private ServerIdentity() {}

  /**
   * A setting's value with any {@code password=...} of a connection string hidden (a replica's
   * {@code primary_conninfo} may hold one): run.json is published with reports.
   */
  static String withoutPassword(String value) {
    return value == null
        ? null
        : value.replaceAll("(?i)(password\\s*=\\s*)('[^']*'|\\S+)", "$1***");
  }

  /**
   * Reads the identity of the server {@code connection} is connected to.
   *
   * @return {@code product}, {@code version}, and for PostgreSQL {@code settings} (name to value,
   *     with its unit, sorted by name)
   * @throws SQLException when the server cannot be asked
   */
  public static Map<String, Object> of(Connection connection) throws SQLException {
    DatabaseMetaData meta = connection.getMetaData();
    Map<String, Object> identity = new LinkedHashMap<>();
    identity.put("product", meta.getDatabaseProductName());
    identity.put("version", meta.getDatabaseProductVersion());
    if ("PostgreSQL".equalsIgnoreCase(meta.getDatabaseProductName())) {
      Map<String, Object> settings = new TreeMap<>();
      try (Statement statement = connection.createStatement();
          ResultSet rows =
              statement.executeQuery(
                  "select name, setting, coalesce(unit, '') from pg_settings"
                      + " where source not in ('default', 'override', 'client', 'session')")) {
        while (rows.next()) {
          String name = rows.getString(1);
          if (!LOCATION_SETTINGS.contains(name) && !name.contains("passphrase")) {
            settings.put(name, withoutPassword(rows.getString(2)) + rows.getString(3));
          }
        }
      }
      identity.put("settings", settings);
    }
    return identity;
  }
}
