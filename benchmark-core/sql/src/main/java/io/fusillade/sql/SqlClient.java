package io.fusillade.sql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.pool.HikariPool;
import io.fusillade.FusilladeException;
import io.fusillade.health.ConnectFailures;
import io.fusillade.health.NodeWatch;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Runs SQL statements for a load generator without blocking the caller.
 *
 * <p>Each statement runs as one task on a bounded executor with as many threads as the pool has
 * connections: the connection is taken and the statement executed in the same task (taking them in
 * two tasks deadlocks under back-pressure). When every thread is busy, statements wait in a bounded
 * queue; when the queue is full the statement fails at once with {@value #QUEUE_FULL}, so a slow
 * database never builds an unbounded backlog inside the injector. Result sets are read row by row
 * and counted, never held.
 *
 * <p>Fail fast on a dead node. A statement waits for a connection in slices of {@value
 * #SLICE_MILLIS} ms: after each, if the pool's last attempt to connect was refused, reset or timed
 * out, the node is marked down ({@link NodeHealth#markDown}) and the statement, those queued behind
 * it and those sent meanwhile fail at once with "connection refused: 127.0.0.1:5432" instead of
 * each waiting out the connection timeout. A statement that has waited 500 ms with no failure to
 * connect seen tries a TCP connection to the node's port (one statement at a time): a node that
 * drops packets, where the pool's attempts hang, is marked down with "connect timeout: ...". A
 * connection that dies under a statement (reset, end of stream, SQLState 08xxx or 57P01-57P03)
 * marks the node down too when a TCP connection to its port fails as well; when the port still
 * accepts, only that connection is lost and the pool replaces it. When the node is marked down its
 * pool is closed; the cluster's probe ({@link #probe()}) opens a new one once the node accepts a
 * real connection again, so the node serves at once with fresh connections instead of waiting for
 * HikariCP's own reconnection back-off (up to 5 s). A statement that gets no connection within the
 * connection timeout fails with the pool's last failure to connect; without one, with a connect
 * timeout of the node (marked down) when the pool lacks connections — the node accepts TCP but
 * gives no session — or, when every connection was open and busy, with the injector's own limit,
 * {@value #OUT_OF_CONNECTIONS}.
 *
 * <p>A request past its timeout is cancelled on the server ({@link JdbcTimeouts}).
 *
 * <p>Why one class of about 500 lines: taking a connection, marking the node down, closing and
 * reopening its pool, and probing it all read and replace the one pool reference and health kept
 * here; the timeouts are {@link JdbcTimeouts}, the reasons {@link ConnectFailures}.
 */
public final class SqlClient implements SqlNode {
  /** The reason of a statement refused because the injector's queue is full. */
  public static final String QUEUE_FULL = "injector queue full";

  /**
   * The start of the reason of a statement that found no free connection within the connection
   * timeout although the node answers: the pool is too small for the load.
   */
  public static final String OUT_OF_CONNECTIONS = "out of connections";

  /** How long a statement waits for a connection before it looks at the node's state again. */
  static final long SLICE_MILLIS = 100;

  /** The connect timeout of the TCP check that tells a lost connection from a dead node. */
  private static final int CHECK_TIMEOUT_MILLIS = 1_000;

  private static final AtomicInteger POOLS = new AtomicInteger();

  private final SqlClientOptions options;
  private final NodeHealth health;
  private final String node;
  private final String hostPort; // null when the URL names no single host:port to check
  private final AtomicReference<HikariPool> pool; // null while the node is down
  private final ThreadPoolExecutor executor;
  private final SqlTimeout defaultTimeout;
  private final JdbcTimeouts timeouts;
  private volatile boolean closed;
  private final java.util.concurrent.atomic.AtomicBoolean checking =
      new java.util.concurrent.atomic.AtomicBoolean();

  /** The time left before its deadline below which a waiting statement checks the node's port. */
  private final long checkAfterNanos;

  private SqlClient(SqlClientOptions options, NodeHealth health, HikariPool pool) {
    this.options = options;
    this.health = health;
    this.node = options.node();
    this.hostPort = JdbcUrls.hostPort(options.url());
    this.pool = new AtomicReference<>(pool);
    this.defaultTimeout = SqlTimeout.of(options.requestTimeout());
    this.timeouts = new JdbcTimeouts(node, options.poolSize());
    // remaining time below which a waiting statement checks: after 500 ms of waiting
    this.checkAfterNanos =
        options.connectionTimeout().toNanos() - TimeUnit.MILLISECONDS.toNanos(5 * SLICE_MILLIS);
    AtomicInteger threads = new AtomicInteger();
    String prefix = "fusillade-sql-" + node + "-worker-";
    this.executor =
        new ThreadPoolExecutor(
            options.poolSize(),
            options.poolSize(),
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(options.queueCapacity()),
            r -> {
              Thread thread = new Thread(r, prefix + threads.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    executor.prestartAllCoreThreads();
  }

  /**
   * Opens the pool of a database used on its own (never marked down) and checks that it answers.
   *
   * @throws FusilladeException naming the URL (password masked) when it cannot connect
   */
  public static SqlClient open(SqlClientOptions options) {
    return open(options, NodeHealth.NONE);
  }

  /**
   * Opens the pool of one node of a cluster and checks that the node answers.
   *
   * @param health the node's state in its cluster, which this client marks down when the node
   *     refuses or loses connections
   * @throws FusilladeException naming the URL (password masked) when it cannot connect
   */
  public static SqlClient open(SqlClientOptions options, NodeHealth health) {
    try {
      return new SqlClient(options, health, newPool(options));
    } catch (HikariPool.PoolInitializationException | IllegalArgumentException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new FusilladeException(
          "cannot connect to "
              + JdbcUrls.mask(options.url())
              + ": "
              + firstLine(cause.getMessage()),
          e);
    } catch (RuntimeException e) {
      throw new FusilladeException(
          "cannot use JDBC URL " + JdbcUrls.mask(options.url()) + ": " + firstLine(e.getMessage()),
          e);
    }
  }

  /** A pool of {@code poolSize} connections, the first one opened now (it throws when it can't). */
  private static HikariPool newPool(SqlClientOptions options) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(options.url());
    config.setUsername(options.user());
    config.setPassword(options.password());
    config.setMaximumPoolSize(options.poolSize());
    config.setMinimumIdle(options.poolSize());
    config.setConnectionTimeout(Math.max(250, options.connectionTimeout().toMillis()));
    config.setInitializationFailTimeout(1);
    config.setPoolName("fusillade-sql-" + POOLS.incrementAndGet());
    if (options.url().startsWith("jdbc:postgresql:")) {
      // a cancel (of a request past its timeout) to a server that does not take it gives up
      // after 2 s, not PostgreSQL's driver's default 10 s
      config.addDataSourceProperty("cancelSignalTimeout", "2");
    }
    config.validate();
    return new HikariPool(config);
  }

  public SqlClientOptions options() {
    return options;
  }

  /**
   * Executes {@code sql} with {@code parameters} off the calling thread and hands the outcome to
   * {@code done}, on a worker thread — or on the calling thread, at once, when the queue is full.
   * Never throws for a database error: that is a {@code KO} outcome with its SQLState.
   */
  public void execute(String sql, Object[] parameters, Consumer<SqlOutcome> done) {
    execute(Statements.query(sql, parameters), List.of(), done);
  }

  /**
   * Runs {@code work} on a worker thread with a connection taken in the same task, checks its
   * result, and hands the outcome to {@code done} (on the worker thread, or at once on the calling
   * thread when the node is down, the queue is full or the client is closed).
   */
  @Override
  public void execute(
      SqlWork work, List<SqlCheck> checks, SqlTimeout timeout, Consumer<SqlOutcome> done) {
    String down = health.reason();
    if (down != null) {
      done.accept(SqlOutcome.connectionFailure(down));
      return;
    }
    SqlTimeout limit = timeout != null ? timeout : defaultTimeout;
    try {
      executor.execute(() -> done.accept(run(work, checks, limit)));
    } catch (RejectedExecutionException e) {
      done.accept(SqlOutcome.ko(executor.isShutdown() ? "injector shut down" : QUEUE_FULL));
    }
  }

  private SqlOutcome run(SqlWork work, List<SqlCheck> checks, SqlTimeout timeout) {
    Connection connection;
    try {
      connection = connection();
    } catch (Unavailable e) {
      return e.outcome;
    }
    try {
      // past its timeout, cancelled on the server
      return timeouts.run(connection, work, checks, timeout, this::evict);
    } catch (SQLException e) {
      SqlOutcome outcome = SqlOutcome.error(e.getSQLState(), firstLine(e.getMessage()));
      Optional<String> kind = ConnectFailures.kind(e);
      if (outcome.connectionFailure() || kind.isPresent()) {
        lost(kind.orElse(ConnectFailures.RESET));
        return SqlOutcome.connectionFailure(outcome.reason());
      }
      return outcome;
    } catch (RuntimeException e) {
      return SqlOutcome.ko(e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()));
    } finally {
      giveBack(connection);
    }
  }

  /**
   * Returns a connection to its pool, whatever that costs: the request's outcome is known. A
   * connection evicted while its cancel was under way ({@link JdbcTimeouts}) has lost its physical
   * connection, and HikariCP's reset of the settings the request changed (its network timeout) then
   * fails on it with a NullPointerException, which must not replace the request's timeout (a
   * ladder's level once counted "NullPointerException" instead of "timed out").
   */
  private static void giveBack(Connection connection) {
    try {
      connection.close();
    } catch (SQLException | RuntimeException e) {
      // the pool has the connection back or has dropped it: either way the request is over
    }
  }

  /**
   * A connection from the pool, waited for in slices so that a node found dead meanwhile fails the
   * statement at once.
   *
   * @throws Unavailable with the outcome of a statement that gets none
   */
  private Connection connection() throws Unavailable {
    long deadline = System.nanoTime() + options.connectionTimeout().toNanos();
    Throwable lastFailure = null; // the pool's last failure to connect, when it had one
    while (true) {
      String down = health.reason();
      if (down != null) {
        throw new Unavailable(SqlOutcome.connectionFailure(down));
      }
      if (closed) {
        throw new Unavailable(SqlOutcome.ko("injector shut down"));
      }
      long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      HikariPool current = pool.get();
      if (remainingMillis <= 0) {
        throw new Unavailable(noConnection(lastFailure, current));
      }
      if (current == null) {
        pause(); // the probe is putting a new pool in place
        continue;
      }
      try {
        return current.getConnection(Math.min(SLICE_MILLIS, remainingMillis));
      } catch (SQLException e) {
        if (current != pool.get()) {
          continue; // the pool was closed because the node went down, or replaced as it came back
        }
        lastFailure = e.getCause(); // HikariCP's last failure to connect, null when none
        if (lastFailure != null) {
          Optional<String> kind = ConnectFailures.kind(lastFailure);
          if (kind.isPresent()) {
            down(ConnectFailures.reason(kind.get(), node));
          } else if (lastFailure instanceof SQLException s
              && SqlOutcome.nodeUnavailable(s.getSQLState())) {
            down(reason(s)); // e.g. 57P03: the database system is starting up
          }
        } else if (deadline - System.nanoTime() < checkAfterNanos) {
          // No connection for a while and no failure yet: the pool is busy, or its attempt to
          // connect hangs (a node that drops packets). A TCP connection to the port tells which.
          checkReachable();
        }
      }
    }
  }

  /**
   * The outcome of a statement that got no connection within the connection timeout: the pool's
   * last failure to connect when it had one; a connect timeout when the pool still lacks
   * connections (the node accepts TCP but gives no session: the node is marked down); the
   * injector's own limit when every connection was there and busy.
   */
  private SqlOutcome noConnection(Throwable lastFailure, HikariPool current) {
    if (lastFailure == null
        && current != null
        && current.getTotalConnections() < options.poolSize()) {
      String reason =
          ConnectFailures.reason(ConnectFailures.CONNECT_TIMEOUT, node)
              + " (no session within "
              + seconds(options.connectionTimeout())
              + ")";
      down(reason);
      return SqlOutcome.connectionFailure(reason);
    }
    if (lastFailure != null) {
      Optional<String> kind = ConnectFailures.kind(lastFailure);
      if (kind.isPresent()) {
        return SqlOutcome.connectionFailure(ConnectFailures.reason(kind.get(), node));
      }
      if (lastFailure instanceof SQLException s && s.getSQLState() != null) {
        return SqlOutcome.connectionFailure(reason(s));
      }
      return SqlOutcome.connectionFailure(
          "cannot connect to " + node + ": " + firstLine(lastFailure.getMessage()));
    }
    return SqlOutcome.ko(
        OUT_OF_CONNECTIONS
            + ": none of the "
            + options.poolSize()
            + " was free within "
            + seconds(options.connectionTimeout()));
  }

  /** Takes {@code connection} out of its pool: closed when returned, never handed out again. */
  private void evict(Connection connection) {
    HikariPool current = pool.get();
    if (current != null) {
      current.evictConnection(connection);
    }
  }

  private static String seconds(Duration duration) {
    long millis = duration.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
  }

  private static void pause() {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * A connection died under a statement: the node is down if its port refuses a new TCP connection
   * too (or, when the URL names no port to try, at once).
   */
  private void lost(String kind) {
    if (health.isDown()) {
      return;
    }
    String seen = kind;
    if (hostPort != null) {
      try {
        NodeWatch.connect(hostPort, CHECK_TIMEOUT_MILLIS);
        return; // the node accepts connections: only this one was lost, and the pool replaces it
      } catch (IOException | RuntimeException e) {
        seen = ConnectFailures.kind(e).orElse(kind);
      }
    }
    down(ConnectFailures.reason(seen, node));
  }

  /**
   * Marks the node down when a TCP connection to its port fails within {@value
   * #CHECK_TIMEOUT_MILLIS} ms; one statement checks at a time, the others keep waiting meanwhile.
   */
  private void checkReachable() {
    if (hostPort == null || !checking.compareAndSet(false, true)) {
      return;
    }
    try {
      NodeWatch.connect(hostPort, CHECK_TIMEOUT_MILLIS);
    } catch (IOException | RuntimeException e) {
      down(
          ConnectFailures.reason(
              ConnectFailures.kind(e).orElse(ConnectFailures.CONNECT_TIMEOUT), node));
    } finally {
      checking.set(false);
    }
  }

  /** Marks the node down; the first to do so closes its pool, whose connections are broken. */
  private void down(String reason) {
    if (closed) {
      return; // connections failing as the run ends say nothing about the node
    }
    if (health.markDown(reason)) {
      retire(pool.getAndSet(null));
    }
  }

  /** Closes {@code old} in the background: closing waits for its threads. */
  private static void retire(HikariPool old) {
    if (old == null) {
      return;
    }
    old.softEvictConnections(); // the idle ones go now
    Thread closer =
        new Thread(
            () -> {
              try {
                old.shutdown();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "fusillade-sql-pool-closer");
    closer.setDaemon(true);
    closer.start();
  }

  /**
   * Tries the node after it was marked down: a TCP connection to its port, a real connection with
   * the driver (a server still starting refuses it with SQLState 57P03), then a new pool in place
   * of the closed one, its first connection open.
   */
  @Override
  public void probe() throws Exception {
    if (closed) {
      throw new IllegalStateException("closed");
    }
    if (hostPort != null) {
      NodeWatch.connect(hostPort, CHECK_TIMEOUT_MILLIS);
    }
    try (Connection ignored = DriverManager.getConnection(options.url(), credentials())) {
      // logged in: the node takes sessions again
    }
    retire(pool.getAndSet(newPool(options)));
    if (closed) {
      retire(pool.getAndSet(null));
    }
  }

  /** The user and password, and for PostgreSQL short timeouts: a probe must not hang. */
  private Properties credentials() {
    Properties properties = new Properties();
    if (options.user() != null) {
      properties.setProperty("user", options.user());
    }
    if (options.password() != null) {
      properties.setProperty("password", options.password());
    }
    if (options.url().startsWith("jdbc:postgresql:")) {
      properties.setProperty("connectTimeout", "1");
      properties.setProperty("loginTimeout", "2");
    }
    return properties;
  }

  /** "SQLState 42P01: relation "x" does not exist": short, and the same for the same error. */
  static String reason(SQLException e) {
    return SqlOutcome.reason(e.getSQLState(), firstLine(e.getMessage()));
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "(no message)";
    }
    int newline = message.indexOf('\n');
    return (newline < 0 ? message : message.substring(0, newline)).strip();
  }

  /** Statements waiting for a thread now. */
  public int queued() {
    return executor.getQueue().size();
  }

  /** Stops accepting statements, lets running ones finish (for up to 10 s), closes the pool. */
  @Override
  public void close() {
    executor.shutdown();
    try {
      executor.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    closed = true;
    executor.shutdownNow();
    timeouts.close();
    HikariPool last = pool.getAndSet(null);
    if (last != null) {
      try {
        last.shutdown();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A statement that gets no connection, and how it ends. */
  private static final class Unavailable extends Exception {
    private final transient SqlOutcome outcome;

    Unavailable(SqlOutcome outcome) {
      super(null, null, false, false);
      this.outcome = outcome;
    }
  }
}
