package io.fusillade.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A role of an embedded server that must authenticate with SCRAM-SHA-256: created by the trusted
 * superuser, then {@code pg_hba.conf} gets its lines first and the server reloads it.
 */
final class PasswordUser {
  private PasswordUser() {}

  static void create(LocalPostgres server, Path dataDirectory, String user, String password)
      throws IOException {
    try (Connection connection = server.connect();
        Statement statement = connection.createStatement()) {
      // Whatever the server's default, the verifier stored is SCRAM's, never md5's.
      statement.execute("set password_encryption = 'scram-sha-256'");
      statement.execute(
          "create role "
              + user
              + " login superuser password '"
              + password.replace("'", "''")
              + "'");
    } catch (SQLException e) {
      // The statement held the password: PostgreSQL's message never does, so it is safe to show.
      throw new IllegalStateException(
          "could not create the password user " + user + ": " + e.getMessage(), e);
    }
    Path hba = dataDirectory.resolve("pg_hba.conf");
    String lines =
        "# fusillade: "
            + user
            + " authenticates with SCRAM-SHA-256 (first match wins)\n"
            + "local all "
            + user
            + " scram-sha-256\n"
            + "host all "
            + user
            + " 0.0.0.0/0 scram-sha-256\n"
            + "host all "
            + user
            + " ::/0 scram-sha-256\n";
    Files.writeString(hba, lines + Files.readString(hba));
    try (Connection connection = server.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("select pg_reload_conf()");
    } catch (SQLException e) {
      throw new IllegalStateException("could not reload pg_hba.conf: " + e.getMessage(), e);
    }
    awaitRefusalWithoutPassword(server, user);
  }

  /** The reload is a signal: wait until a connection without the password is refused. */
  private static void awaitRefusalWithoutPassword(LocalPostgres server, String user) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < deadline) {
      try (Connection ignored = DriverManager.getConnection(server.jdbcUrl(user))) {
        Thread.sleep(50); // still trusted: the reload has not happened yet
      } catch (SQLException refused) {
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while reloading pg_hba.conf", e);
      }
    }
    throw new IllegalStateException(
        "pg_hba.conf reloaded, but " + user + " still connects without a password");
  }
}
