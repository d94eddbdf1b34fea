package io.fusillade.sql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import io.fusillade.FusilladeException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 */
public final class SqlClient implements SqlNode {
  /** The reason of a statement refused because the injector's queue is full. */
  public static final String QUEUE_FULL = "injector queue full";

  private static final AtomicInteger POOLS = new AtomicInteger();

  private final SqlClientOptions options;
  private final HikariDataSource dataSource;
  private final ThreadPoolExecutor executor;
  private final int timeoutMillis;

  private SqlClient(SqlClientOptions options, HikariDataSource dataSource) {
    this.options = options;
    this.dataSource = dataSource;
    this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, options.requestTimeout().toMillis());
    AtomicInteger threads = new AtomicInteger();
    String prefix = dataSource.getPoolName() + "-worker-";
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
   * Opens the pool and checks that the database answers.
   *
   * @throws FusilladeException naming the URL (password masked) when it cannot connect
   */
  public static SqlClient open(SqlClientOptions options) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(options.url());
    config.setUsername(options.user());
    config.setPassword(options.password());
    config.setMaximumPoolSize(options.poolSize());
    config.setMinimumIdle(options.poolSize());
    config.setConnectionTimeout(Math.max(250, options.connectionTimeout().toMillis()));
    config.setInitializationFailTimeout(1);
    config.setPoolName("fusillade-sql-" + POOLS.incrementAndGet());
    try {
      return new SqlClient(options, new HikariDataSource(config));
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
   * thread when the queue is full or the client is closed).
   */
  @Override
  public void execute(SqlWork work, List<SqlCheck> checks, Consumer<SqlOutcome> done) {
    try {
      executor.execute(() -> done.accept(run(work, checks)));
    } catch (RejectedExecutionException e) {
      done.accept(SqlOutcome.ko(executor.isShutdown() ? "injector shut down" : QUEUE_FULL));
    }
  }

  private SqlOutcome run(SqlWork work, List<SqlCheck> checks) {
    Connection connection;
    try {
      connection = dataSource.getConnection();
    } catch (SQLException e) {
      return SqlOutcome.connectionFailure(reason(e));
    }
    try (connection) {
      // The driver gives up on an answer that does not come (the pool resets this on return).
      connection.setNetworkTimeout(Runnable::run, timeoutMillis);
      return SqlOutcome.checked(work.run(connection), checks);
    } catch (SQLException e) {
      if (timedOut(e)) {
        return SqlOutcome.timedOut(options.requestTimeout());
      }
      return SqlOutcome.error(e.getSQLState(), firstLine(e.getMessage()));
    } catch (RuntimeException e) {
      return SqlOutcome.ko(e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()));
    }
  }

  private static boolean timedOut(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof java.net.SocketTimeoutException) {
        return true;
      }
    }
    return false;
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
    executor.shutdownNow();
    dataSource.close();
  }
}
