package io.fusillade.sql.pg;

import io.fusillade.FusilladeException;
import io.fusillade.health.ConnectFailures;
import io.fusillade.health.NodeWatch;
import io.fusillade.sql.JdbcUrls;
import io.fusillade.sql.NodeHealth;
import io.fusillade.sql.SqlCheck;
import io.fusillade.sql.SqlClientOptions;
import io.fusillade.sql.SqlNode;
import io.fusillade.sql.SqlOutcome;
import io.fusillade.sql.SqlTimeout;
import io.fusillade.sql.SqlWork;
import io.fusillade.sql.Statements;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One PostgreSQL node reached with Fusillade's own client of PostgreSQL's protocol (the {@link
 * io.fusillade.sql.SqlEngine#NATIVE native engine}), on the event loops of the load generator.
 *
 * <p>Each event loop of {@code group} gets its share of the connections ({@code poolSize} spread
 * over the loops, at least one each). A request made on one of those loops — a Gatling virtual
 * user's — runs on that loop's least busy connection and its outcome comes back on the same thread:
 * no worker threads, no hand-offs. Requests are pipelined: a connection sends the next request
 * without waiting for the answer to the one before, as {@code pgbench} does with its own
 * connections. At most {@code poolSize + queueCapacity} requests are in flight on a node; beyond
 * that a request fails at once with {@value io.fusillade.sql.SqlClient#QUEUE_FULL}. A request whose
 * answer does not come within its timeout is cancelled on the server (PostgreSQL's cancel request)
 * and fails as timed out.
 *
 * <p>It runs the protocol's queries and updates (with their checks), transactions (the statements
 * before one Sync: committed together or rolled back together) and batches; results stream through
 * and only the rows are counted. Parameters go as text, typed by the server, so {@code where id =
 * $1} takes a number and {@code $1::jsonb} a JSON string.
 *
 * <p>Fail fast on a dead node: when a connection closes under its requests they fail at once with
 * the reason, and the connection is opened again at once; when that (or any) connection is refused,
 * reset or times out, or the server answers that it is shutting down or starting up (SQLState
 * 57P01-57P03), the node is marked down ({@link NodeHealth#markDown}) and requests for it fail at
 * once with "connection refused: 127.0.0.1:5432" until the cluster's probe ({@link #probe()}) finds
 * it accepting sessions again; the closed connections are opened again with the next requests.
 */
public final class PgClient implements SqlNode {
  private final SqlClientOptions options;
  private final NodeHealth health;
  private final String node;
  private final PgAddress address;
  private final InetSocketAddress socket;
  private final ChannelFactory<? extends Channel> channels;
  private final List<PgLoop> loops = new ArrayList<>();
  private final AtomicInteger nextLoop = new AtomicInteger();
  private final SqlTimeout defaultTimeout;
  private volatile boolean closing;
  private final java.util.concurrent.atomic.AtomicBoolean checking =
      new java.util.concurrent.atomic.AtomicBoolean();

  private PgClient(
      SqlClientOptions options,
      NodeHealth health,
      PgAddress address,
      InetSocketAddress socket,
      ChannelFactory<? extends Channel> channels) {
    this.options = options;
    this.health = health;
    this.node = options.node();
    this.address = address;
    this.socket = socket;
    this.channels = channels;
    this.defaultTimeout = SqlTimeout.of(options.requestTimeout());
  }

  /**
   * Connects to the node from every loop of {@code group} and waits until each connection is ready
   * for queries.
   *
   * @param channels makes sockets that fit {@code group} (NIO, epoll or io_uring)
   * @throws FusilladeException naming the URL (password masked) when the URL is not a PostgreSQL
   *     one, or the node cannot be reached or refuses the user
   */
  public static PgClient open(
      SqlClientOptions options, EventLoopGroup group, ChannelFactory<? extends Channel> channels) {
    return open(options, NodeHealth.NONE, group, channels);
  }

  /**
   * Connects to one node of a cluster from every loop of {@code group} and waits until each
   * connection is ready for queries.
   *
   * @param health the node's state in its cluster, which this client marks down when the node
   *     refuses or loses connections
   * @see #open(SqlClientOptions, EventLoopGroup, ChannelFactory)
   */
  public static PgClient open(
      SqlClientOptions options,
      NodeHealth health,
      EventLoopGroup group,
      ChannelFactory<? extends Channel> channels) {
    PgAddress address;
    try {
      address = PgAddress.of(options);
    } catch (IllegalArgumentException e) {
      throw new FusilladeException(e.getMessage(), e);
    }
    InetSocketAddress socket = new InetSocketAddress(address.host(), address.port());
    if (socket.isUnresolved()) {
      throw new FusilladeException(
          "cannot connect to " + JdbcUrls.mask(options.url()) + ": unknown host " + address.host());
    }
    PgClient client = new PgClient(options, health, address, socket, channels);
    List<EventLoop> executors = new ArrayList<>();
    for (EventExecutor executor : group) {
      if (executor.inEventLoop()) {
        throw new IllegalStateException("open the native client off its event loops");
      }
      executors.add((EventLoop) executor);
    }
    int perLoop = Math.max(1, ceilDiv(options.poolSize(), executors.size()));
    int capacity =
        Math.max(perLoop, ceilDiv(options.poolSize() + options.queueCapacity(), executors.size()));
    List<CompletableFuture<Void>> ready = new ArrayList<>();
    for (EventLoop executor : executors) {
      PgLoop loop = new PgLoop(executor, client, perLoop, capacity);
      client.loops.add(loop);
      CompletableFuture<Void> started = new CompletableFuture<>();
      executor.execute(
          () -> {
            loop.start();
            List<CompletableFuture<Void>> connections = new ArrayList<>();
            for (PgConnection connection : loop.connections()) {
              connections.add(connection.ready());
            }
            CompletableFuture.allOf(connections.toArray(CompletableFuture[]::new))
                .whenComplete(
                    (ok, failure) -> {
                      if (failure != null) {
                        started.completeExceptionally(failure);
                      } else {
                        started.complete(null);
                      }
                    });
          });
      ready.add(started);
    }
    try {
      CompletableFuture.allOf(ready.toArray(CompletableFuture[]::new))
          .get(options.connectionTimeout().toMillis() + 2_000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      client.close();
      Throwable cause =
          e.getCause() instanceof java.util.concurrent.CompletionException c
              ? c.getCause()
              : e.getCause();
      throw new FusilladeException(
          "cannot connect to " + JdbcUrls.mask(options.url()) + ": " + cause.getMessage(), cause);
    } catch (TimeoutException e) {
      client.close();
      throw new FusilladeException(
          "cannot connect to "
              + JdbcUrls.mask(options.url())
              + ": no answer within "
              + options.connectionTimeout().toMillis()
              + " ms",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      client.close();
      throw new FusilladeException("interrupted while connecting to " + address.label(), e);
    }
    return client;
  }

  private static int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
  }

  public SqlClientOptions options() {
    return options;
  }

  /**
   * Runs {@code work} — a {@link Statements.Query}, {@link Statements.Transaction} or {@link
   * Statements.Batch} — and hands its outcome to {@code done} on the event loop of the connection
   * that ran it: the caller's own loop when the caller is one of the group's loops.
   */
  @Override
  public void execute(
      SqlWork work, List<SqlCheck> checks, SqlTimeout timeout, Consumer<SqlOutcome> done) {
    Set<String> capture;
    if (work instanceof Statements.Query query) {
      capture = query.capture();
    } else if (work instanceof Statements.Transaction || work instanceof Statements.Batch) {
      capture = Set.of();
    } else {
      done.accept(
          SqlOutcome.ko(
              "the native engine runs queries, updates, transactions and batches; "
                  + "use the JDBC engine for other work"));
      return;
    }
    String down = health.reason();
    if (down != null) {
      done.accept(SqlOutcome.connectionFailure(down));
      return;
    }
    PgRequest request =
        new PgRequest(
            work,
            capture,
            checks,
            done,
            System.nanoTime(),
            timeout != null ? timeout : defaultTimeout);
    for (int i = 0; i < loops.size(); i++) {
      PgLoop loop = loops.get(i);
      if (loop.executor.inEventLoop()) {
        loop.submit(request);
        return;
      }
    }
    PgLoop loop = loops.get(Math.floorMod(nextLoop.getAndIncrement(), loops.size()));
    try {
      loop.executor.execute(() -> loop.submit(request));
    } catch (RejectedExecutionException e) {
      done.accept(SqlOutcome.ko("injector shut down"));
    }
  }

  boolean isClosing() {
    return closing;
  }

  /** Why the node is down, or null while it is up. */
  String downReason() {
    return health.reason();
  }

  /**
   * A connection could not be opened, or the server ended a session saying it is going away or not
   * ready: the node is down when the failure is a refused, reset or timed-out connection, or one of
   * those SQLStates.
   *
   * @param cause what the socket failed with, or null for the server's answer
   * @param sqlState the server's SQLState, or null
   * @param reason the request's reason for the server's answer
   */
  void connectFailed(Throwable cause, String sqlState, String reason) {
    if (closing) {
      return; // connections failing as the run ends say nothing about the node
    }
    if (cause != null) {
      ConnectFailures.kind(cause)
          .ifPresent(
              kind -> {
                if (kind.equals(ConnectFailures.RESET)) {
                  check();
                } else {
                  health.markDown(ConnectFailures.reason(kind, node));
                }
              });
    } else if (SqlOutcome.nodeUnavailable(sqlState)) {
      health.markDown(reason);
    }
  }

  /**
   * A connection was reset or closed by the server while it started: a server going away does that
   * while its port still accepts for a moment, and so does a live one ending one session. A TCP
   * connection to the port, off the event loop, tells which: the node is down when it fails too,
   * and then named by how it failed ("connection refused"), not by the reset.
   */
  void check() {
    if (closing || health.isDown() || !checking.compareAndSet(false, true)) {
      return;
    }
    Thread checker =
        new Thread(
            () -> {
              try {
                NodeWatch.connect(address.host() + ":" + address.port(), 1_000);
              } catch (java.io.IOException | RuntimeException e) {
                String kind = ConnectFailures.kind(e).orElse(ConnectFailures.RESET);
                health.markDown(ConnectFailures.reason(kind, node));
              } finally {
                checking.set(false);
              }
            },
            "fusillade-pg-check");
    checker.setDaemon(true);
    checker.start();
  }

  /**
   * Tries the node after it was marked down: a TCP connection to its port, then a connection of
   * this engine that starts up and logs in (a server still starting refuses it with SQLState
   * 57P03), closed again. The closed connections of each loop are opened again by the next
   * requests.
   */
  @Override
  public void probe() throws Exception {
    if (closing) {
      throw new IllegalStateException("closed");
    }
    NodeWatch.connect(address.host() + ":" + address.port(), 1_000);
    PgLoop loop = loops.get(0);
    CompletableFuture<PgConnection> opened = new CompletableFuture<>();
    loop.executor.execute(() -> opened.complete(connect(loop)));
    long timeout = options.connectionTimeout().toMillis() + 1_000;
    PgConnection connection = opened.get(timeout, TimeUnit.MILLISECONDS);
    try {
      connection.ready().get(timeout, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
    } finally {
      loop.executor.execute(() -> connection.terminate(SqlOutcome.ko("probe done")));
    }
  }

  /**
   * Sends PostgreSQL's cancel request for the session {@code processId} from {@code loop} ({@link
   * PgCancel}): the server stops the statement that session runs.
   */
  void cancel(int processId, int secretKey, EventLoop loop) {
    PgCancel.send(socket, address.label(), loop, channels, processId, secretKey);
  }

  long connectTimeoutNanos() {
    return options.connectionTimeout().toNanos();
  }

  /** A new connection of {@code loop}, on its thread. */
  PgConnection connect(PgLoop loop) {
    int timeout = (int) Math.min(Integer.MAX_VALUE, options.connectionTimeout().toMillis());
    return PgConnection.open(address, socket, loop.executor, channels, timeout, loop);
  }

  /**
   * Stops taking requests, lets those in flight finish (for up to 10 s, unless called on one of the
   * loops, which cannot wait for themselves), and closes the connections.
   */
  @Override
  public void close() {
    closing = true;
    boolean onLoop = loops.stream().anyMatch(loop -> loop.executor.inEventLoop());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (PgLoop loop : loops) {
      if (onLoop || loop.executor.isShuttingDown()) {
        continue;
      }
      try {
        while (loop.executor.submit(loop::inFlight).get(1, TimeUnit.SECONDS) > 0
            && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
      } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
        break;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    for (PgLoop loop : loops) {
      if (loop.executor.inEventLoop()) {
        loop.close();
      } else {
        try {
          loop.executor.execute(loop::close);
        } catch (RejectedExecutionException e) {
          // the loops are gone, and their sockets with them
        }
      }
    }
  }

  @Override
  public String toString() {
    return "PgClient[" + address + "]";
  }
}
