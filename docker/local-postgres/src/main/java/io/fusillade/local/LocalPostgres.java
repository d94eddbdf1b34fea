package io.fusillade.local;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import javax.sql.DataSource;

/**
 * A real PostgreSQL server started on this machine from Maven Central binaries: no Docker, no
 * installation. It listens on loopback, on a free port unless one is given, and is stopped (its
 * data directory removed) by {@link #close()}.
 *
 * <pre>{@code
 * try (LocalPostgres pg = LocalPostgres.start()) {
 *   String url = pg.jdbcUrl(); // jdbc:postgresql://localhost:PORT/postgres?user=postgres
 * }
 * }</pre>
 *
 * <p>It is tuned for load tests of the SQL path, not of the disk: {@code fsync} and {@code
 * synchronous_commit} are off by default, which a test may override with {@link
 * Builder#serverConfig(String, String)}.
 *
 * <p>The superuser {@value #USER} is trusted without a password. To test what a real server asks
 * for, {@link Builder#passwordUser(String, String)} adds a role that must authenticate with
 * SCRAM-SHA-256, as a production PostgreSQL is set up:
 *
 * <pre>{@code
 * try (LocalPostgres pg = LocalPostgres.builder().passwordUser("app", secret).start()) {
 *   String url = pg.jdbcUrl("app"); // refused without the password
 * }
 * }</pre>
 */
public final class LocalPostgres implements PostgresServer {
  /** The superuser of the embedded server; it trusts local connections, so no password. */
  public static final String USER = "postgres";

  /** The database every server has. */
  public static final String DATABASE = "postgres";

  private static final String DIRECTORY_PREFIX = "fusillade-pg-";
  private static final String LOG_DIRECTORY = "log";
  private static final String LOG_FILE = "postgresql.log";

  private final EmbeddedPostgres server;
  private final Path dataDirectory;
  private final Path ownedDirectory; // null when the user chose the data directory
  private final Map<String, String> serverConfig; // what its replicas start with too
  private final LocalPostgres primary; // null unless this is a replica
  private final String slot; // the primary's replication slot of this replica, or null
  private final java.util.concurrent.atomic.AtomicInteger replicas =
      new java.util.concurrent.atomic.AtomicInteger();
  private List<String> stoppedCommand; // guarded by this; set while stopped by stopImmediately

  private LocalPostgres(
      EmbeddedPostgres server,
      Path dataDirectory,
      Path ownedDirectory,
      Map<String, String> serverConfig,
      LocalPostgres primary,
      String slot) {
    this.server = server;
    this.dataDirectory = dataDirectory;
    this.ownedDirectory = ownedDirectory;
    this.serverConfig = Map.copyOf(serverConfig);
    this.primary = primary;
    this.slot = slot;
  }

  /** Starts a server with the default settings on a free port. */
  public static LocalPostgres start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The JDBC URL of the {@value #DATABASE} database, user {@value #USER}. */
  public String jdbcUrl() {
    return server.getJdbcUrl(USER, DATABASE);
  }

  /**
   * The JDBC URL of the {@value #DATABASE} database for another user (no password in it), such as
   * the one of {@link Builder#passwordUser(String, String)}.
   */
  public String jdbcUrl(String user) {
    return server.getJdbcUrl(user, DATABASE);
  }

  public int port() {
    return server.getPort();
  }

  public String user() {
    return USER;
  }

  /** The embedded server trusts loopback connections: the password is empty. */
  public String password() {
    return "";
  }

  /** A plain (unpooled) data source for setup work. */
  public DataSource dataSource() {
    return server.getPostgresDatabase();
  }

  /** Opens a connection for setup work; close it. */
  public Connection connect() throws SQLException {
    return dataSource().getConnection();
  }

  /**
   * The server's log file: its logging collector writes every message at {@code log_min_messages}
   * and above (WARNING by default) to {@code log/postgresql.log} of its data directory, appended to
   * across restarts. A {@code logs: embedded} monitor source counts its lines.
   */
  public Path logFile() {
    return dataDirectory.resolve(LOG_DIRECTORY).resolve(LOG_FILE);
  }

  /** The postmaster and its children (the backends, the background workers), or empty. */
  public List<Long> pids() {
    OptionalLong postmaster = pid();
    List<Long> pids = new java.util.ArrayList<>();
    if (postmaster.isPresent()) {
      pids.add(postmaster.getAsLong());
      ProcessHandle.of(postmaster.getAsLong())
          .ifPresent(p -> p.descendants().forEach(d -> pids.add(d.pid())));
    }
    return pids;
  }

  /** The postmaster's process id, for system metrics (empty if it cannot be read). */
  public OptionalLong pid() {
    try {
      List<String> lines = Files.readAllLines(dataDirectory.resolve("postmaster.pid"));
      return lines.isEmpty()
          ? OptionalLong.empty()
          : OptionalLong.of(Long.parseLong(lines.get(0).strip()));
    } catch (IOException | NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /**
   * Freezes the server (SIGSTOP of the postmaster and every backend): its sessions stay open and
   * what clients send waits, unanswered, until {@link #resume()}. For stall tests.
   *
   * @throws IllegalStateException when the server's processes cannot be found or signalled
   */
  public synchronized void pause() {
    signalAll("STOP");
  }

  /** Lets the server paused by {@link #pause()} run again (SIGCONT of all its processes). */
  public synchronized void resume() {
    signalAll("CONT");
  }

  private void signalAll(String signal) {
    long postmaster =
        pid()
            .orElseThrow(() -> new IllegalStateException("the embedded PostgreSQL is not running"));
    List<Long> pids = new java.util.ArrayList<>(List.of(postmaster));
    ProcessHandle.of(postmaster).ifPresent(p -> p.descendants().forEach(d -> pids.add(d.pid())));
    Signals.send(signal, "the embedded PostgreSQL", pids);
  }

  /**
   * Stops the server as a crash would ({@code pg_ctl stop -m immediate}): every session is cut,
   * nothing is checkpointed, and the port refuses connections once this returns. The data stays, so
   * {@link #restart()} brings the same server back on the same port (after crash recovery). For
   * tests of what a client does when its database dies.
   *
   * @throws IllegalStateException when the server is not running or {@code pg_ctl} fails
   */
  public synchronized void stopImmediately() {
    List<String> command = postmasterCommand();
    stoppedCommand = command;
    Path pgCtl = Path.of(command.get(0)).resolveSibling("pg_ctl");
    run(List.of(pgCtl.toString(), "-D", dataDirectory.toString(), "-m", "immediate", "-w", "stop"));
  }

  /**
   * Starts the server stopped by {@link #stopImmediately()} again, with the same settings on the
   * same port, and waits until it accepts connections ({@code pg_ctl start -w}).
   *
   * @throws IllegalStateException when it was not stopped that way or does not start
   */
  public synchronized void restart() {
    if (stoppedCommand == null) {
      throw new IllegalStateException("restart() follows stopImmediately()");
    }
    List<String> command = stoppedCommand;
    Path pgCtl = Path.of(command.get(0)).resolveSibling("pg_ctl");
    // postmaster.opts holds the postmaster's arguments: -D <dir> (pg_ctl's own -D gives it) and
    // the settings, the port among them.
    StringBuilder options = new StringBuilder();
    for (int i = 1; i < command.size(); i++) {
      if (command.get(i).equals("-D")) {
        i++;
        continue;
      }
      String argument = command.get(i);
      options.append(options.length() == 0 ? "" : " ");
      options.append(argument.contains(" ") ? "\"" + argument + "\"" : argument);
    }
    run(
        List.of(
            pgCtl.toString(),
            "-D",
            dataDirectory.toString(),
            "-w",
            "-t",
            "60",
            "-o",
            options.toString(),
            "start"));
    stoppedCommand = null;
  }

  /** The running postmaster's command line, from {@code postmaster.opts}. */
  private List<String> postmasterCommand() {
    try {
      String opts = Files.readString(dataDirectory.resolve("postmaster.opts")).strip();
      List<String> arguments = new java.util.ArrayList<>();
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("\"([^\"]*)\"|(\\S+)").matcher(opts);
      while (m.find()) {
        arguments.add(m.group(1) != null ? m.group(1) : m.group(2));
      }
      return arguments;
    } catch (IOException e) {
      throw new IllegalStateException("the embedded PostgreSQL is not running: " + e, e);
    }
  }

  /**
   * Runs a PostgreSQL tool as the embedded server itself was started: in a user namespace ({@code
   * unshare -U}) where one is available, since PostgreSQL's tools refuse to run as root.
   */
  private static void run(List<String> tool) {
    List<String> command = new java.util.ArrayList<>();
    if (io.zonky.test.db.postgres.util.LinuxUtils.isUnshareAvailable()) {
      command.addAll(List.of("unshare", "-U"));
    }
    command.addAll(tool);
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!process.waitFor(90, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("timed out: " + String.join(" ", command));
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            "exit code " + process.exitValue() + ": " + String.join(" ", command));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + String.join(" ", command), e);
    }
  }

  /**
   * Starts a hot standby of this server on a free port: a base backup of this server's data, then
   * streaming replication from a physical replication slot of this server (named {@code
   * fusillade_replica_N}), as {@code pg_basebackup -R} sets a standby up. It answers reads only (a
   * write fails with SQLState 25006, "cannot execute INSERT in a read-only transaction") and shows
   * what the primary committed within moments. It has this server's settings, and can be paused,
   * stopped and restarted like any {@code LocalPostgres}; close it before this server (a {@link
   * LocalPostgresCluster} does).
   *
   * @return the running standby, which has caught up with this server's state at the call
   * @throws IllegalStateException when this server is itself a standby, or the standby cannot start
   */
  public LocalPostgres startReplica() {
    if (primary != null) {
      throw new IllegalStateException("a replica of a replica (cascading) is not offered");
    }
    String replicaSlot = "fusillade_replica_" + replicas.incrementAndGet();
    Path owned = null;
    try {
      owned = StaleServers.newServerDirectory(DIRECTORY_PREFIX);
      Path directory = owned.resolve("data");
      try (Connection connection = connect()) {
        BaseBackup.cloneAsStandby(connection, dataDirectory, directory, port(), replicaSlot);
      }
      EmbeddedPostgres.Builder builder =
          EmbeddedPostgres.builder().setDataDirectory(directory).setCleanDataDirectory(false);
      serverConfig.forEach(builder::setServerConfig);
      return new LocalPostgres(builder.start(), directory, owned, serverConfig, this, replicaSlot);
    } catch (IOException | SQLException | RuntimeException e) {
      if (owned != null) {
        StaleServers.delete(owned);
      }
      dropSlot(replicaSlot);
      throw new IllegalStateException(
          "could not start a replica of the embedded PostgreSQL on port "
              + port()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** Whether this server is a standby made by {@link #startReplica()}. */
  public boolean isReplica() {
    return primary != null;
  }

  /** Drops a replication slot of this server, if it can: else the slot keeps WAL until close. */
  private void dropSlot(String name) {
    try (Connection connection = connect();
        java.sql.PreparedStatement drop =
            connection.prepareStatement(
                "select pg_drop_replication_slot(slot_name) from pg_replication_slots"
                    + " where slot_name = ? and not active")) {
      drop.setString(1, name);
      drop.execute();
    } catch (SQLException | RuntimeException e) {
      // the primary is stopped or busy: its slots go with it
    }
  }

  /** The data directory (package-private: tests check its removal). */
  Path dataDirectoryForTests() {
    return dataDirectory;
  }

  /** Stops the server and removes its data directory. */
  @Override
  public void close() {
    try {
      server.close();
      if (primary != null) {
        primary.dropSlot(slot);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not stop the embedded PostgreSQL on port " + port(), e);
    } finally {
      if (ownedDirectory != null) {
        StaleServers.delete(ownedDirectory);
      }
    }
  }

  @Override
  public String toString() {
    return "LocalPostgres[" + jdbcUrl() + "]";
  }

  /** Settings of a server to start. Mutable, single use. */
  public static final class Builder {
    private int port;
    private Path dataDirectory;
    private final Map<String, String> serverConfig = new LinkedHashMap<>();
    private String passwordUser;
    private String password;

    private Builder() {
      serverConfig.put("fsync", "off");
      serverConfig.put("synchronous_commit", "off");
      serverConfig.put("full_page_writes", "off");
      serverConfig.put("max_connections", "300");
      serverConfig.put("listen_addresses", "localhost");
      // the server's messages in a file of its own, which a logs: monitor source can count
      serverConfig.put("logging_collector", "on");
      serverConfig.put("log_directory", LOG_DIRECTORY);
      serverConfig.put("log_filename", LOG_FILE);
      serverConfig.put("log_rotation_age", "0");
      serverConfig.put("log_rotation_size", "0");
    }

    /** A fixed port instead of a free one. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /**
     * Where the data lives (by default a fresh temporary directory). Cleaned on start and close.
     */
    public Builder dataDirectory(Path directory) {
      this.dataDirectory = directory;
      return this;
    }

    /** Any {@code postgresql.conf} setting. */
    public Builder serverConfig(String name, String value) {
      serverConfig.put(name, value);
      return this;
    }

    /**
     * Also creates the login role {@code user}, a superuser (it may create tables anywhere) that
     * must give {@code password} by SCRAM-SHA-256 over every connection, TCP or socket: its lines
     * come first in {@code pg_hba.conf}, before the {@code trust} lines of {@value #USER}. The
     * password is stored as a SCRAM verifier, never in clear.
     */
    public Builder passwordUser(String user, String password) {
      if (user == null || !user.matches("[a-z_][a-z0-9_]*") || user.equals(USER)) {
        throw new IllegalArgumentException(
            "a password user is a plain lower-case name other than " + USER + ", not " + user);
      }
      if (password == null || password.isEmpty()) {
        throw new IllegalArgumentException("the password user " + user + " needs a password");
      }
      this.passwordUser = user;
      this.password = password;
      return this;
    }

    /** Zonky's builder: {@code clean} runs initdb in an emptied directory. */
    private EmbeddedPostgres.Builder embedded(Path directory, boolean clean) {
      EmbeddedPostgres.Builder builder =
          EmbeddedPostgres.builder().setDataDirectory(directory).setCleanDataDirectory(clean);
      if (port > 0) {
        builder.setPort(port);
      }
      serverConfig.forEach(builder::setServerConfig);
      return builder;
    }

    /**
     * Starts the server and waits until it accepts connections.
     *
     * @throws IllegalStateException when it cannot start, with PostgreSQL's reason
     */
    public LocalPostgres start() {
      try {
        DistributionScript.settle();
        StaleServers.reap(DIRECTORY_PREFIX, "postmaster.pid");
        Path owned =
            dataDirectory == null ? StaleServers.newServerDirectory(DIRECTORY_PREFIX) : null;
        Path directory = owned != null ? owned.resolve("data") : dataDirectory;
        // A fresh server of ours starts from a copy of initdb's output, not from initdb.
        boolean copied =
            owned != null && InitdbTemplate.copyInto(directory, owned, DIRECTORY_PREFIX);
        EmbeddedPostgres server;
        try {
          server = embedded(directory, !copied).start();
        } catch (IOException | RuntimeException e) {
          if (!copied) {
            throw e;
          }
          StaleServers.delete(directory);
          server = embedded(directory, true).start();
          // initdb's own directory starts where the copy did not: the template is of other
          // binaries, or damaged (a failure of both is not the template's)
          InitdbTemplate.forget();
        }
        LocalPostgres started =
            new LocalPostgres(server, directory, owned, serverConfig, null, null);
        if (passwordUser != null) {
          try {
            PasswordUser.create(started, directory, passwordUser, password);
          } catch (RuntimeException | IOException e) {
            started.close();
            throw e;
          }
        }
        return started;
      } catch (IOException e) {
        throw new IllegalStateException(
            "could not start the embedded PostgreSQL: " + e.getMessage(), e);
      }
    }
  }
}
