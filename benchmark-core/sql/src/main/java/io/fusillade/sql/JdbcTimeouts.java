package io.fusillade.sql;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancels, on the server, the JDBC requests of one node that run past their timeout: the server
 * stops the statement, and the request ends as a KO with its timeout's reason, instead of the
 * driver giving up on the socket while the server goes on running the statement for nobody.
 *
 * <p>A request runs its work on a {@linkplain Watch#connection() connection} that notes each
 * statement it makes. A sweeper thread looks at the running requests every {@value #SWEEP_MILLIS}
 * ms; one past its deadline has its current statement cancelled ({@link Statement#cancel()}, which
 * PostgreSQL's driver sends as a cancel request), on a thread of its own so that a server slow to
 * take the cancel holds no other request's. The cancel is tried again every {@value #RETRY_MILLIS}
 * ms while the request runs: a driver may ignore a cancel that comes between two statements of a
 * transaction, or before its statement was sent. And a statement made after the deadline fails at
 * once.
 *
 * <p>Sweeping costs one set insertion and removal per request, where a timer per request would lock
 * a shared queue twice; a timeout is seen up to {@value #SWEEP_MILLIS} ms late.
 */
final class JdbcTimeouts implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JdbcTimeouts.class);

  /** How often the running requests are looked at. */
  static final long SWEEP_MILLIS = 50;

  /** How long after a cancel of a request still running the next is sent. */
  static final long RETRY_MILLIS = 100;

  private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS);

  private final Set<Watch> running = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService sweeper;
  private final ThreadPoolExecutor cancels;

  /**
   * @param node the node's name, for the threads' names
   * @param poolSize the node's connections: at most that many requests to cancel at once
   */
  JdbcTimeouts(String node, int poolSize) {
    this.sweeper =
        Executors.newSingleThreadScheduledExecutor(
            r -> daemon(r, "fusillade-sql-" + node + "-timeouts"));
    AtomicInteger threads = new AtomicInteger();
    this.cancels =
        new ThreadPoolExecutor(
            poolSize,
            poolSize,
            10,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> daemon(r, "fusillade-sql-" + node + "-cancel-" + threads.incrementAndGet()));
    cancels.allowCoreThreadTimeOut(true);
    sweeper.scheduleWithFixedDelay(this::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
  }

  private static Thread daemon(Runnable r, String name) {
    Thread thread = new Thread(r, name);
    thread.setDaemon(true);
    return thread;
  }

  /** How long a cancelled statement may take to answer before the driver gives up on it. */
  static final long CANCEL_GRACE_MILLIS = 2_000;

  /**
   * Runs {@code work} on {@code connection} within {@code timeout}, and checks its result.
   *
   * @param evict takes the connection out of its pool (when a cancel is still under way as the
   *     request ends, the cancel could reach the connection's next request)
   * @return the outcome: OK or a failed check, or the timeout's KO when the request was cancelled
   *     (with "no answer to its cancel" when the driver gave up even on that: the server may still
   *     run the statement)
   * @throws SQLException any other failure of the work
   */
  SqlOutcome run(
      Connection connection,
      SqlWork work,
      List<SqlCheck> checks,
      SqlTimeout timeout,
      Consumer<Connection> evict)
      throws SQLException {
    // The driver gives up on the socket only if no answer comes even to the cancel (the pool
    // resets this on return).
    connection.setNetworkTimeout(
        Runnable::run,
        (int) Math.min(Integer.MAX_VALUE, timeout.duration().toMillis() + CANCEL_GRACE_MILLIS));
    Watch watch = watch(connection, timeout);
    SqlResult result;
    try {
      result = work.run(watch.connection());
    } catch (SQLException e) {
      if (socketTimedOut(e)) {
        return SqlOutcome.ko(
            timeout.reason()
                + " (no answer to its cancel within "
                + CANCEL_GRACE_MILLIS / 1000
                + " s)");
      }
      if (watch.expired()) {
        return SqlOutcome.timedOut(timeout); // cancelled on the server
      }
      throw e;
    } finally {
      if (watch.finish()) {
        evict.accept(connection);
      }
    }
    return SqlOutcome.checked(result, checks);
  }

  private static boolean socketTimedOut(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof java.net.SocketTimeoutException) {
        return true;
      }
    }
    return false;
  }

  /**
   * Starts watching a request that runs on {@code connection} from now for {@code timeout}: run the
   * work on {@link Watch#connection()}, then {@link Watch#finish()}.
   */
  Watch watch(Connection connection, SqlTimeout timeout) {
    Watch watch = new Watch(connection, System.nanoTime() + timeout.nanos());
    running.add(watch);
    return watch;
  }

  private void sweep() {
    long now = System.nanoTime();
    for (Watch watch : running) {
      if (now - watch.deadline >= 0) {
        watch.expire(now);
      }
    }
  }

  /** Stops sweeping; requests still running are no longer cancelled. */
  @Override
  public void close() {
    sweeper.shutdownNow();
    cancels.shutdownNow();
  }

  /** One request's statements and deadline. */
  final class Watch implements InvocationHandler {
    private static final int IDLE = 0;
    private static final int CANCELLING = 1;
    private static final int FINISHED = 2;

    private final Connection target;
    private final Connection proxy;
    private final long deadline;
    private final AtomicInteger state = new AtomicInteger(IDLE);
    private volatile Statement statement; // the last one made
    private volatile boolean expired;
    private long lastCancel; // on the sweeper's thread only

    private Watch(Connection target, long deadline) {
      this.target = target;
      this.deadline = deadline;
      this.proxy =
          (Connection)
              Proxy.newProxyInstance(
                  Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, this);
    }

    /** The connection the request's work runs on: the request's, noting each statement. */
    Connection connection() {
      return proxy;
    }

    /** Whether the deadline passed while the request ran: it was cancelled. */
    boolean expired() {
      return expired;
    }

    /**
     * The request has ended: no cancel starts from now on.
     *
     * @return true when a cancel is under way: the connection must not serve another request, which
     *     the cancel could reach (the caller evicts it from its pool)
     */
    boolean finish() {
      running.remove(this);
      return state.getAndSet(FINISHED) == CANCELLING;
    }

    private void expire(long now) {
      expired = true;
      if (lastCancel != 0 && now - lastCancel < RETRY_NANOS) {
        return;
      }
      lastCancel = now;
      if (state.compareAndSet(IDLE, CANCELLING)) {
        try {
          cancels.execute(this::cancel);
        } catch (RejectedExecutionException e) {
          state.compareAndSet(CANCELLING, IDLE); // closing
        }
      }
    }

    private void cancel() {
      try {
        Statement current = statement;
        if (current != null && state.get() == CANCELLING) {
          current.cancel();
        }
      } catch (SQLException | RuntimeException e) {
        // closed meanwhile, or the server refused: tried again while the request runs
        LOG.debug("cancel of a timed out statement failed: {}", e.getMessage());
      } finally {
        state.compareAndSet(CANCELLING, IDLE);
      }
    }

    @Override
    public Object invoke(Object ignored, Method method, Object[] args) throws Throwable {
      boolean makes = makesStatement(method);
      if (makes && expired) {
        throw timedOut();
      }
      Object result;
      try {
        result = method.invoke(target, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      if (makes && result instanceof Statement made) {
        statement = made;
        // Written before reading expired, as the sweeper writes expired before it reads the
        // statement: one of the two sees the other, so no statement escapes the deadline.
        if (expired) {
          made.close();
          throw timedOut();
        }
      }
      return result;
    }

    private static boolean makesStatement(Method method) {
      String name = method.getName();
      return name.equals("prepareStatement")
          || name.equals("createStatement")
          || name.equals("prepareCall");
    }

    private static SQLException timedOut() {
      return new SQLException("the request timed out", "57014");
    }
  }
}
