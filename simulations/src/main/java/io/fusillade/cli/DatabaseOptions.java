package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.sql.JdbcUrls;
import io.fusillade.workload.Workload;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Where a command finds the database: {@code --url} (repeatable) and {@code --user}, with the
 * password in the environment variable {@value #PASSWORD_VARIABLE}; else the workload's {@code
 * connection} section.
 */
final class DatabaseOptions {
  static final String PASSWORD_VARIABLE = "FUSILLADE_SQL_PASSWORD";

  /** The JDBC URLs of {@code --url}: each command declares the option with its own help text. */
  List<String> urls;

  /** The help text of {@code --url} for SQL. */
  static final String JDBC_URL =
      "A node's JDBC URL (repeat for a cluster). Default: the workload's connection.";

  @Option(names = "--user", description = "The database user.")
  String user;

  /**
   * The nodes to use, or an empty list when neither the command line nor the workload names one.
   */
  List<String> urls(Workload workload) {
    if (urls != null && !urls.isEmpty()) {
      return urls;
    }
    return workload.connection().map(c -> c.urls()).orElse(List.of());
  }

  String user(Workload workload) {
    if (user != null) {
      return user;
    }
    return workload.connection().map(c -> c.user()).orElse(null);
  }

  String password(Workload workload) {
    String fromEnvironment = System.getenv(PASSWORD_VARIABLE);
    if (fromEnvironment != null) {
      return fromEnvironment;
    }
    return workload.connection().map(c -> c.password()).orElse(null);
  }

  /** Opens a connection, or fails with a message naming the URL (password masked). */
  static Connection connect(String url, String user, String password) {
    try {
      return DriverManager.getConnection(url, user, password);
    } catch (SQLException e) {
      throw new FusilladeException(
          "cannot connect to "
              + JdbcUrls.mask(url)
              + ": "
              + firstLine(JdbcUrls.mask(String.valueOf(e.getMessage())))
              + hint(url));
    }
  }

  /**
   * What to do about a URL no driver takes because it lacks {@code jdbc:} ({@code
   * postgresql://db:5432/app}, as psql and libpq spell it): "{@code ; a JDBC URL starts with jdbc:
   * (jdbc:postgresql://db:5432/app)}"; empty for any other URL.
   */
  static String hint(String url) {
    String lower = url.strip().toLowerCase(java.util.Locale.ROOT);
    if (lower.startsWith("jdbc:")) {
      return "";
    }
    String fixed =
        "jdbc:"
            + (lower.startsWith("postgres://")
                ? "postgresql://" + url.strip().substring("postgres://".length())
                : url.strip());
    return "; a JDBC URL starts with jdbc: (" + JdbcUrls.mask(fixed) + ")";
  }

  /** Connects once and closes, or fails with a message naming the URL (password masked). */
  static void checkReachable(String url, String user, String password) {
    try (Connection connection = connect(url, user, password)) {
      connection.isValid(5);
    } catch (SQLException closingFailed) {
      // it answered: reachable
    }
  }

  /** The first line of an exception's message, which is the one users need. */
  static String firstLine(String message) {
    if (message == null) {
      return "(no message)";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
