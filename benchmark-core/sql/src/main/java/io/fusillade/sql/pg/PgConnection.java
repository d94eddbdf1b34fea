package io.fusillade.sql.pg;

import io.fusillade.sql.SqlOutcome;
import io.fusillade.sql.SqlPlaceholders;
import io.fusillade.sql.Statements;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to PostgreSQL, living on one event loop: it starts up and authenticates, then
 * sends each request as Parse (the first time a statement is seen), Bind, Execute and Sync, without
 * waiting for the answers to the requests before it (pipelining). Answers come back in order, so
 * the request at the head of the queue owns every message up to its ReadyForQuery.
 *
 * <p>Everything here runs on the connection's event loop; nothing is locked.
 *
 * <p>Why one class of over 500 lines: start-up, pipelining, decoding and timeouts all read and
 * write the same unlocked state (the queues, the buffers, the prepared statements), and keeping
 * that state private to one class is what makes "only the event loop touches it" checkable by
 * reading. The protocol's pieces that need no state live beside it: {@code PgMessages} encodes,
 * {@code PgAuth} authenticates.
 */
final class PgConnection extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(PgConnection.class);

  /** Prepared statements kept per connection; beyond it, new statements are parsed each time. */
  private static final int MAX_STATEMENTS = 256;

  /** A start-up slower than this makes the client check the node's port (see expire). */
  private static final long SLOW_START_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);

  /** The largest outbox kept for the next request; one grown by a big batch is given back. */
  private static final int MAX_KEPT_OUTBOX = 64 * 1024;

  private final PgAddress address;
  private final PgLoop owner;
  private final long openedNanos = System.nanoTime();
  private final CompletableFuture<Void> ready = new CompletableFuture<>();
  private final ArrayDeque<PgRequest> unsent = new ArrayDeque<>();
  private final ArrayDeque<PgRequest> inFlight = new ArrayDeque<>();

  /** Since when the server has worked on the oldest request in flight (see {@link #stalled}). */
  private long headSinceNanos;

  /** The usual time from a request's turn at the server to its answer (see {@link #stalled}). */
  private long usualAnswerNanos;

  private final Map<String, String> statements = new HashMap<>(); // SQL with ? -> name
  private Channel channel;
  private boolean started;
  private boolean closed;
  private boolean everReady;
  private boolean terminated; // closed by this side: nothing to open again
  private boolean slowStartChecked; // the node's port was checked for a slow start-up
  private SqlOutcome closing; // why the connection goes away: what its requests end with
  private String refusal; // why it could not start, without the address: for open()'s message
  private ByteBuf cumulation;
  private ByteBuf outbox; // where requests are encoded: see outbox()
  private PgAuth.Scram scram;
  private int statementCount;
  private int processId; // BackendKeyData: what a cancel request names
  private int secretKey;
  private boolean keyKnown;

  /**
   * A connection not yet on a channel: {@link #open} puts it on a socket; the JMH benchmark of the
   * client puts it on an {@code EmbeddedChannel}, to time the encoding and decoding without a
   * server.
   */
  PgConnection(PgAddress address, PgLoop owner) {
    this.address = address;
    this.owner = owner;
  }

  /** Connects on {@code loop}; {@link #ready()} completes once the server is ready for queries. */
  static PgConnection open(
      PgAddress address,
      InetSocketAddress socket,
      EventLoop loop,
      ChannelFactory<? extends Channel> channels,
      int connectTimeoutMillis,
      PgLoop owner) {
    PgConnection connection = new PgConnection(address, owner);
    Bootstrap bootstrap =
        new Bootstrap()
            .group(loop)
            .channelFactory(channels)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
            .handler(connection);
    bootstrap
        .connect(socket)
        .addListener(
            future -> {
              if (!future.isSuccess()) {
                connection.refusal = String.valueOf(future.cause().getMessage());
                connection.closing = failure(address, connection.refusal);
                owner.client().connectFailed(future.cause(), null, null);
                connection.closed();
              }
            });
    return connection;
  }

  private static SqlOutcome failure(PgAddress address, String reason) {
    return SqlOutcome.connectionFailure("cannot connect to " + address.label() + ": " + reason);
  }

  /** Completes when the connection can take requests; fails with the bare reason when it can't. */
  CompletableFuture<Void> ready() {
    return ready;
  }

  boolean isClosed() {
    return closed;
  }

  /** Whether it is still connecting or starting up: not closed, not yet ready for requests. */
  boolean isStarting() {
    return !closed && !started;
  }

  /** Whether it closed before it was ever ready: the node refused it. */
  boolean refused() {
    return closed && !everReady;
  }

  SqlOutcome closing() {
    return closing;
  }

  /** Requests sent or waiting to be sent on it. */
  int pending() {
    return unsent.size() + inFlight.size();
  }

  /**
   * Whether the server has been working on this connection's oldest request for longer than {@code
   * floor} and than {@value #STALLED_TIMES} times the usual answer of this connection at {@code
   * now}: a statement waiting on a lock, a slow query. The requests pipelined behind it wait as
   * long, so a new request is better sent elsewhere. The usual answer counts the network's round
   * trip, so that a distant database's requests are not all stalled.
   */
  boolean stalled(long now, long floor) {
    return !inFlight.isEmpty()
        && now - headSinceNanos > Math.max(floor, STALLED_TIMES * usualAnswerNanos);
  }

  /** How many usual answers a request may take before its connection is stalled. */
  static final int STALLED_TIMES = 8;

  /** Sends the request now, or once the start-up is over. */
  void send(PgRequest request) {
    if (closed) {
      end(request, closing);
    } else if (started) {
      write(request);
    } else {
      unsent.add(request);
    }
  }

  private void write(PgRequest request) {
    ByteBuf out = outbox();
    if (request.work instanceof Statements.Query query) {
      String name = statement(out, query.sql(), request);
      PgMessages.bind(out, name, query.params());
      if (!request.capture.isEmpty()) {
        PgMessages.describePortal(out);
      }
      PgMessages.execute(out);
    } else if (request.work instanceof Statements.Transaction transaction) {
      // Without an explicit BEGIN, what comes before one Sync is one implicit transaction:
      // committed at the Sync, or rolled back whole after the first error. Its new statements
      // are parsed before the first runs: after an error the server skips every message up to
      // the Sync, a Parse too, and a request pipelined behind this one may already use the name.
      List<Statements.Bound> statements = transaction.statements();
      String[] names = new String[statements.size()];
      for (int i = 0; i < names.length; i++) {
        String sql = statements.get(i).sql();
        if (this.statements.containsKey(sql) || this.statements.size() < MAX_STATEMENTS) {
          names[i] = statement(out, sql, request);
        }
      }
      for (int i = 0; i < names.length; i++) {
        Statements.Bound bound = statements.get(i);
        // beyond the cache, the unnamed statement: parsed just before it runs
        String name = names[i] != null ? names[i] : statement(out, bound.sql(), request);
        PgMessages.bind(out, name, bound.params());
        PgMessages.execute(out);
      }
    } else {
      Statements.Batch batch = (Statements.Batch) request.work;
      String name = statement(out, batch.sql(), request);
      for (Object[] params : batch.parameterSets()) {
        PgMessages.bind(out, name, params);
        PgMessages.execute(out);
      }
    }
    PgMessages.sync(out);
    if (inFlight.isEmpty()) {
      headSinceNanos = System.nanoTime(); // the server starts on it now
    }
    inFlight.add(request);
    channel.writeAndFlush(out.retain(), channel.voidPromise());
  }

  /**
   * An empty buffer to encode a request in: the one the last request used, once the socket has
   * taken its bytes (the channel has let go of it), else a new one. A request per buffer would cost
   * an allocation and a release per request, as much CPU as the encoding.
   */
  private ByteBuf outbox() {
    ByteBuf out = outbox;
    if (out != null && out.refCnt() == 1 && out.capacity() <= MAX_KEPT_OUTBOX) {
      return out.clear();
    }
    if (out != null) {
      out.release(); // still being written, or too big: the channel frees it when done
    }
    return outbox = channel.alloc().ioBuffer(256);
  }

  /** The name of the prepared statement for {@code sql}, parsing it first if it is new. */
  private String statement(ByteBuf out, String sql, PgRequest request) {
    String name = statements.get(sql);
    if (name == null) {
      name = statements.size() < MAX_STATEMENTS ? "f" + ++statementCount : "";
      if (!name.isEmpty()) {
        statements.put(sql, name);
      }
      request.parsing(name);
      PgMessages.parse(out, name, SqlPlaceholders.toNumbered(sql));
    }
    return name;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    if (closed) {
      ctx.close(); // given up (terminated) while it was connecting
      return;
    }
    channel = ctx.channel();
    ByteBuf out = ctx.alloc().ioBuffer(96);
    PgMessages.startup(out, address.user(), address.database());
    ctx.writeAndFlush(out, ctx.voidPromise());
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf in = (ByteBuf) msg;
    ByteBuf data;
    if (cumulation != null) {
      cumulation.discardSomeReadBytes();
      cumulation.writeBytes(in);
      in.release();
      data = cumulation;
    } else {
      data = in;
    }
    try {
      decode(data);
    } finally {
      if (!data.isReadable()) {
        data.release();
        cumulation = null;
      } else if (data != cumulation) {
        // A message split across reads: keep its start until the rest arrives.
        cumulation = ctx.alloc().buffer(Math.max(1024, data.readableBytes() * 2));
        cumulation.writeBytes(data);
        data.release();
      }
    }
  }

  private void decode(ByteBuf data) {
    while (data.readableBytes() >= 5) {
      int start = data.readerIndex();
      int length = data.getInt(start + 1);
      if (data.readableBytes() < 1 + length) {
        return;
      }
      byte type = data.getByte(start);
      data.readerIndex(start + 1 + length);
      if (started && skipped(type)) {
        continue;
      }
      if (!started) {
        startUp(type, data.slice(start + 5, length - 4));
      } else if (type == 'Z' || type == 'C') {
        // The two messages every answer has: read in place, without a slice.
        answered(type, data, start + 5, start + 1 + length);
      } else {
        answer(type, data.slice(start + 5, length - 4));
      }
    }
  }

  /**
   * Messages with nothing to read: BindComplete, NoData, EmptyQueryResponse, ParameterStatus,
   * notices, and rows when no check reads them (the common case, so it costs no allocation).
   */
  private boolean skipped(byte type) {
    return switch (type) {
      case '2', 'n', 'I', 'S', 'N', 'A', 's' -> true;
      case 'D' -> {
        PgRequest head = inFlight.peek();
        yield head == null || !head.wantsRows();
      }
      default -> false;
    };
  }

  /** ReadyForQuery ends the head request; CommandComplete (bytes {@code from} to {@code to}). */
  private void answered(byte type, ByteBuf data, int from, int to) {
    PgRequest head = inFlight.peek();
    if (head == null) {
      return;
    }
    if (type == 'C') {
      head.commandComplete(data, from, to);
      return;
    }
    inFlight.poll();
    long answered = System.nanoTime();
    if (!head.ended()) {
      // a moving average over some 16 answers: the time the server took for the head (not for
      // one that timed out, whose time says nothing of the usual answer)
      usualAnswerNanos += (answered - headSinceNanos - usualAnswerNanos) / 16;
    }
    headSinceNanos = answered; // the next request's turn at the server, if any
    if (head.failed()) {
      head.unconfirmedParses().forEach(name -> statements.values().remove(name));
    }
    owner.finished();
    complete(head);
  }

  private void answer(byte type, ByteBuf body) {
    PgRequest head = inFlight.peek();
    switch (type) {
      case 'E' -> {
        String[] error = readError(body);
        if (head != null) {
          head.error(error[0], error[1]);
        } else {
          // Not about a request: the server is ending the session (shutdown, terminated).
          closing = SqlOutcome.connectionFailure(error[1] + " (SQLState " + error[0] + ")");
        }
      }
      case '1' -> {
        if (head != null) {
          head.parseComplete();
        }
      }
      case 'T' -> {
        if (head != null) {
          head.rowDescription(body);
        }
      }
      case 'D' -> head.dataRow(body); // never without a head: see skipped()
      default -> {
        // BindComplete, NoData, EmptyQueryResponse, notices, parameter status: nothing to keep.
      }
    }
  }

  private void startUp(byte type, ByteBuf body) {
    switch (type) {
      case 'R' -> authenticate(body.readInt(), body);
      case 'E' -> {
        String[] error = readError(body);
        String reason = error[1] + " (SQLState " + error[0] + ")";
        refuse(reason);
        // 57P03, "the database system is starting up" (or shutting down): the node is not ready
        owner.client().connectFailed(null, error[0], "SQLState " + error[0] + ": " + error[1]);
      }
      case 'Z' -> {
        started = true;
        everReady = true;
        ready.complete(null);
        for (PgRequest request = unsent.poll(); request != null; request = unsent.poll()) {
          write(request);
        }
      }
      case 'K' -> {
        // protocol 3.0: a 4-byte process id and a 4-byte secret key
        processId = body.readInt();
        secretKey = body.readInt();
        keyKnown = true;
      }
      default -> {
        // ParameterStatus, notices
      }
    }
  }

  private void authenticate(int method, ByteBuf body) {
    String password = address.password();
    if (method == 0) {
      return; // AuthenticationOk
    }
    if (password == null && (method == 3 || method == 5 || method == 10)) {
      refuse("the server asks for a password and none was given");
      return;
    }
    ByteBuf out = channel.alloc().ioBuffer(128);
    try {
      switch (method) {
        case 3 -> PgMessages.password(out, password);
        case 5 -> {
          byte[] salt = new byte[4];
          body.readBytes(salt);
          PgMessages.password(out, PgAuth.md5(address.user(), password, salt));
        }
        case 10 -> {
          java.util.List<String> mechanisms = new java.util.ArrayList<>();
          for (String m = readString(body); !m.isEmpty(); m = readString(body)) {
            mechanisms.add(m);
          }
          if (!mechanisms.contains(PgAuth.Scram.MECHANISM)) {
            out.release();
            refuse("the server offers " + mechanisms + "; the native engine speaks SCRAM-SHA-256");
            return;
          }
          scram = new PgAuth.Scram(password);
          PgMessages.saslInitialResponse(out, PgAuth.Scram.MECHANISM, scram.first());
        }
        case 11 -> PgMessages.saslResponse(out, scram.finalMessage(bytes(body)));
        case 12 -> {
          out.release();
          if (!scram.verify(bytes(body))) {
            refuse("the server's SCRAM signature is wrong");
          }
          return;
        }
        default -> {
          out.release();
          refuse(
              "authentication method "
                  + method
                  + " is not supported by the native engine; use the JDBC engine");
          return;
        }
      }
    } catch (RuntimeException e) {
      out.release();
      refuse(e.getMessage());
      return;
    }
    channel.writeAndFlush(out, channel.voidPromise());
  }

  private void refuse(String reason) {
    refusal = reason;
    closing = failure(address, reason);
    channel.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (closing == null) {
      closing =
          SqlOutcome.connectionFailure(
              "connection to " + address.label() + " closed by the server");
    }
    closed();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (!everReady) {
      owner.client().connectFailed(cause, null, null); // reset during start-up
    }
    if (closing == null) {
      closing =
          SqlOutcome.connectionFailure(
              "connection to " + address.label() + " failed: " + cause.getMessage());
    }
    ctx.close();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    if (cumulation != null) {
      cumulation.release();
      cumulation = null;
    }
    if (outbox != null) {
      outbox.release();
      outbox = null;
    }
  }

  /** Ends every request still on the connection with the reason it went away. */
  private void closed() {
    if (closed) {
      return;
    }
    closed = true;
    if (!everReady) {
      owner.refused();
      if (refusal == null && !terminated) {
        // Closed by the server before start-up ended, without an error: as good as reset.
        owner.client().check();
      }
    } else if (!terminated) {
      owner.reopen(this);
    }
    ready.completeExceptionally(
        new IllegalStateException(refusal != null ? refusal : closing.reason()));
    for (PgRequest request = inFlight.poll(); request != null; request = inFlight.poll()) {
      // A request whose error arrived before the close (57P01, say) ends with that error.
      if (request.failed()) {
        owner.finished();
        complete(request);
      } else {
        end(request, closing);
      }
    }
    for (PgRequest request = unsent.poll(); request != null; request = unsent.poll()) {
      end(request, closing);
    }
  }

  private void end(PgRequest request, SqlOutcome outcome) {
    owner.finished();
    try {
      request.fail(outcome);
    } catch (RuntimeException e) {
      LOG.warn("a request's completion failed", e);
    }
  }

  private static void complete(PgRequest request) {
    try {
      request.complete();
    } catch (RuntimeException e) {
      LOG.warn("a request's completion failed", e);
    }
  }

  /**
   * Ends the requests past their timeout, and gives up the connection when it has not started
   * within the connection timeout.
   *
   * <p>The oldest request, the one the server is running, is cancelled on the server when its
   * timeout has passed: it ends at once as timed out, a cancel request goes to the server, and its
   * answer (the cancel's error) is dropped when it comes; the connection then serves the requests
   * behind it. When no answer comes within {@value #CANCEL_GRACE_MILLIS} ms of the cancel, the
   * connection is closed. A request behind it whose own timeout passes ends as timed out at once,
   * and is cancelled when its turn at the server comes.
   */
  void expire(long now, long connectTimeoutNanos) {
    if (closed) {
      return;
    }
    if (!started) {
      if (!slowStartChecked && now - openedNanos > SLOW_START_NANOS) {
        // Not connected after a second: a node that drops packets looks like this. A TCP check
        // with a short timeout marks it down ("connect timeout") long before the socket gives up.
        slowStartChecked = true;
        owner.client().check();
      }
      // Before channelActive the connect timeout of the socket applies.
      if (channel != null && now - openedNanos > connectTimeoutNanos) {
        refuse("no answer within " + connectTimeoutNanos / 1_000_000 + " ms");
        owner
            .client()
            .connectFailed(new java.net.SocketTimeoutException("connect timed out"), null, null);
      }
      return;
    }
    PgRequest head = inFlight.peek();
    if (head == null) {
      return;
    }
    if (head.cancelledNanos() == 0) {
      if (head.expired(now)) {
        head.cancelled(now);
        cancelOnServer();
      }
    } else if (now - head.cancelledNanos() > CANCEL_GRACE_NANOS) {
      // The server took no cancel: nothing will come on this connection.
      closing =
          SqlOutcome.ko(
              head.timeout.reason()
                  + " (no answer to its cancel within "
                  + CANCEL_GRACE_MILLIS / 1000
                  + " s)");
      channel.close();
      return;
    }
    java.util.List<PgRequest> expired = null;
    boolean first = true;
    for (PgRequest request : inFlight) {
      if (!first && !request.ended() && request.expired(now)) {
        expired = expired == null ? new java.util.ArrayList<>(2) : expired;
        expired.add(request);
      }
      first = false;
    }
    if (expired != null) {
      // after the loop: a user's next request, sent from its outcome, may come to this connection
      expired.forEach(request -> request.fail(SqlOutcome.timedOut(request.timeout)));
    }
  }

  /** How long the server has to answer a cancelled request before the connection is closed. */
  static final long CANCEL_GRACE_MILLIS = 2_000;

  private static final long CANCEL_GRACE_NANOS =
      java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(CANCEL_GRACE_MILLIS);

  /** Asks the server to stop what this connection's session runs (its oldest request). */
  private void cancelOnServer() {
    if (keyKnown) {
      owner.client().cancel(processId, secretKey, owner.executor);
    }
  }

  /** Says goodbye to the server and closes; requests still here end with {@code outcome}. */
  void terminate(SqlOutcome outcome) {
    if (closed) {
      return;
    }
    terminated = true;
    closing = outcome;
    if (channel != null && channel.isActive() && started) {
      ByteBuf out = channel.alloc().ioBuffer(5);
      PgMessages.terminate(out);
      channel.writeAndFlush(out).addListener(f -> channel.close());
    } else if (channel != null) {
      channel.close();
    } else {
      closed(); // still connecting: its requests end now, the socket is closed when it connects
    }
  }

  /** ErrorResponse: {SQLState, "SEVERITY: message"}, as PostgreSQL's JDBC driver words it. */
  private static String[] readError(ByteBuf body) {
    String state = null;
    String severity = "ERROR";
    String message = "";
    while (body.isReadable()) {
      byte field = body.readByte();
      if (field == 0) {
        break;
      }
      String value = readString(body);
      switch (field) {
        case 'C' -> state = value;
        case 'V' -> severity = value;
        case 'M' -> message = value;
        default -> {
          // detail, hint, position...: not part of a short reason
        }
      }
    }
    return new String[] {state, severity + ": " + message};
  }

  static String readString(ByteBuf body) {
    int end = body.indexOf(body.readerIndex(), body.writerIndex(), (byte) 0);
    if (end < 0) {
      end = body.writerIndex();
    }
    String text =
        body.toString(body.readerIndex(), end - body.readerIndex(), StandardCharsets.UTF_8);
    body.readerIndex(Math.min(end + 1, body.writerIndex()));
    return text;
  }

  private static byte[] bytes(ByteBuf body) {
    byte[] bytes = new byte[body.readableBytes()];
    body.readBytes(bytes);
    return bytes;
  }
}
