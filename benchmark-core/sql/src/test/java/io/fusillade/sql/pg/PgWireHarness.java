package io.fusillade.sql.pg;

import io.fusillade.record.Status;
import io.fusillade.sql.SqlCheck;
import io.fusillade.sql.SqlOutcome;
import io.fusillade.sql.SqlTimeout;
import io.fusillade.sql.Statements;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The native PostgreSQL client's hot path without a server, for its benchmark ({@code
 * io.fusillade.jmh.sql.PgClientBenchmark} in the jmh module) and its test: the real {@code
 * PgConnection} on a Netty {@code EmbeddedChannel}. A request is encoded (Bind, Execute, Sync, and
 * Describe when a check reads a column) into the connection's reused buffer, and the server's
 * answer — bytes as PostgreSQL sends them, canned once — is framed and decoded to the request's
 * outcome. What the socket and the server cost is left out on purpose: this is the injector's share
 * of a query.
 *
 * <p>It lives here, in the client's own package and test sources, because the client's classes are
 * package-private; the sql module ships it in its test-jar (this class only), which the jmh module
 * uses, so no other module declares a class in this package.
 */
public final class PgWireHarness implements AutoCloseable {
  private static final String SQL = "select id, balance from accounts where id = ?";
  private static final int INT8 = 20;

  private EmbeddedChannel channel;
  private PgConnection connection;
  private ByteBuf answer; // BindComplete, DataRow, CommandComplete, ReadyForQuery
  private ByteBuf checkedAnswer; // the same with RowDescription after BindComplete
  private final Set<String> balance = Set.of("balance");
  private final List<SqlCheck> checks = List.of(SqlCheck.column("balance", 100L));
  private SqlOutcome outcome;
  private long key;

  /** Connects (start-up, authentication) and runs the first point select, which parses it. */
  public PgWireHarness() {
    PgLoop loop = new PgLoop(null, null, 1, Integer.MAX_VALUE);
    connection =
        new PgConnection(new PgAddress("127.0.0.1", 5432, "bench", "bench", null, "bench"), loop);
    channel = new EmbeddedChannel(connection); // active: the start-up message is written
    drainOutbound();
    ByteBuf hello = Unpooled.buffer();
    message(hello, 'R').writeInt(0); // AuthenticationOk
    end(hello, 'Z', 'I');
    channel.writeInbound(hello);
    // The first request parses the statement; every later one only binds it.
    ByteBuf parsed = Unpooled.buffer();
    int start = begin(parsed, '1');
    finish(parsed, start);
    parsed.writeBytes(answer(false));
    connection.send(request(Set.of(), List.of()));
    drainOutbound();
    channel.writeInbound(parsed);
    if (outcome == null || outcome.status() != Status.OK || outcome.rows() != 1) {
      throw new IllegalStateException("the first point select did not end well: " + outcome);
    }
    answer = answer(false);
    checkedAnswer = answer(true);
  }

  @Override
  public void close() {
    answer.release();
    checkedAnswer.release();
    channel.finishAndReleaseAll();
  }

  /** A point select without checks: its rows are counted, none is read. */
  public SqlOutcome pointSelect() {
    return roundTrip(request(Set.of(), List.of()), answer);
  }

  /** A point select whose check reads the first row's {@code balance} column. */
  public SqlOutcome pointSelectChecked() {
    return roundTrip(request(balance, checks), checkedAnswer);
  }

  private SqlOutcome roundTrip(PgRequest request, ByteBuf reply) {
    outcome = null;
    connection.send(request);
    drainOutbound(); // the "socket" takes the bytes: the connection reuses its buffer
    channel.writeInbound(reply.retainedDuplicate());
    return outcome;
  }

  /** A timeout no benchmarked request reaches: the path measured is the answer's. */
  private static final SqlTimeout NO_TIMEOUT = SqlTimeout.of(Duration.ofHours(1));

  private PgRequest request(Set<String> capture, List<SqlCheck> checks) {
    Object work = Statements.query(SQL, new Object[] {key++}, capture, 0);
    return new PgRequest(
        work, capture, checks, done -> outcome = done, System.nanoTime(), NO_TIMEOUT);
  }

  private void drainOutbound() {
    for (Object out = channel.readOutbound(); out != null; out = channel.readOutbound()) {
      ((ByteBuf) out).release();
    }
  }

  /** What PostgreSQL answers a bound point select that found its row. */
  private static ByteBuf answer(boolean described) {
    ByteBuf out = Unpooled.directBuffer();
    finish(out, begin(out, '2')); // BindComplete
    if (described) {
      int start = begin(out, 'T');
      out.writeShort(2);
      field(out, "id");
      field(out, "balance");
      finish(out, start);
    }
    int row = begin(out, 'D');
    out.writeShort(2);
    text(out, "42");
    text(out, "100");
    finish(out, row);
    int complete = begin(out, 'C');
    out.writeCharSequence("SELECT 1", StandardCharsets.US_ASCII);
    out.writeByte(0);
    finish(out, complete);
    end(out, 'Z', 'I');
    return out;
  }

  private static void field(ByteBuf out, String name) {
    out.writeCharSequence(name, StandardCharsets.US_ASCII);
    out.writeByte(0);
    out.writeInt(16384); // table oid
    out.writeShort(1); // column number
    out.writeInt(INT8);
    out.writeShort(8); // type size
    out.writeInt(-1); // type modifier
    out.writeShort(0); // text format
  }

  private static void text(ByteBuf out, String value) {
    out.writeInt(value.length());
    out.writeCharSequence(value, StandardCharsets.US_ASCII);
  }

  private static ByteBuf message(ByteBuf out, char type) {
    out.writeByte(type);
    out.writeInt(8);
    return out;
  }

  private static void end(ByteBuf out, char type, char status) {
    out.writeByte(type);
    out.writeInt(5);
    out.writeByte(status);
  }

  private static int begin(ByteBuf out, char type) {
    out.writeByte(type);
    out.writeInt(0);
    return out.writerIndex() - 4;
  }

  private static void finish(ByteBuf out, int start) {
    out.setInt(start, out.writerIndex() - start);
  }
}
