package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.sql.JdbcUrls;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * How the commands reach a database: the password's environment variable ({@value
 * #PASSWORD_VARIABLE}: never an option, which {@code ps} would show), opening a connection and
 * checking that one can be opened, with the URL's password masked in every message. Where to
 * connect is {@link TargetOptions}.
 */
final class DatabaseOptions {
  static final String PASSWORD_VARIABLE = "FUSILLADE_SQL_PASSWORD";

  /** The help text of {@code --url} for the commands that reach SQL databases only. */
  static final String JDBC_URL =
      "A node's JDBC URL (repeat for a cluster). Default: the workload's connection.";

  private DatabaseOptions() {}

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
