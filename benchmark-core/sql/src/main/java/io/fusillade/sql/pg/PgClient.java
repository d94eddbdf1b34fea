package io.fusillade.sql.pg;

import io.fusillade.FusilladeException;
import io.fusillade.sql.JdbcUrls;
import io.fusillade.sql.SqlCheck;
import io.fusillade.sql.SqlClientOptions;
import io.fusillade.sql.SqlNode;
import io.fusillade.sql.SqlOutcome;
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
 * answer does not come within the request timeout fails, and its connection is replaced.
 *
 * <p>It runs the protocol's queries and updates (with their checks), transactions (the statements
 * before one Sync: committed together or rolled back together) and batches; results stream through
 * and only the rows are counted. Parameters go as text, typed by the server, so {@code where id =
 * $1} takes a number and {@code $1::jsonb} a JSON string.
 */
public final class PgClient implements SqlNode {
  private final SqlClientOptions options;
  private final PgAddress address;
  private final InetSocketAddress socket;
  private final ChannelFactory<? extends Channel> channels;
  private final List<PgLoop> loops = new ArrayList<>();
  private final AtomicInteger nextLoop = new AtomicInteger();
  private volatile boolean closing;

  private PgClient(
      SqlClientOptions options,
      PgAddress address,
      InetSocketAddress socket,
      ChannelFactory<? extends Channel> channels) {
    this.options = options;
    this.address = address;
    this.socket = socket;
    this.channels = channels;
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
    PgClient client = new PgClient(options, address, socket, channels);
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
  public void execute(SqlWork work, List<SqlCheck> checks, Consumer<SqlOutcome> done) {
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
    PgRequest request = new PgRequest(work, capture, checks, done, System.nanoTime());
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

  long requestTimeoutNanos() {
    return options.requestTimeout().toNanos();
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
