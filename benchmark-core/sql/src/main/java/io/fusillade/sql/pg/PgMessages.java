package io.fusillade.sql.pg;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/**
 * Writes the frontend messages of PostgreSQL's protocol, version 3.0, that the native engine sends.
 * Each message is a type byte and a length that counts itself and the body; the extended query
 * messages leave every parameter and result in text format, typed by the server.
 */
final class PgMessages {
  private static final int PROTOCOL_3_0 = 196608;

  private PgMessages() {}

  static void startup(ByteBuf out, String user, String database) {
    int start = out.writerIndex();
    out.writeInt(0);
    out.writeInt(PROTOCOL_3_0);
    pair(out, "user", user);
    pair(out, "database", database);
    pair(out, "client_encoding", "UTF8");
    pair(out, "application_name", "fusillade");
    out.writeByte(0);
    out.setInt(start, out.writerIndex() - start);
  }

  private static void pair(ByteBuf out, String name, String value) {
    string(out, name);
    string(out, value);
  }

  /** A password (cleartext or md5 answer): type 'p'. */
  static void password(ByteBuf out, String text) {
    int start = begin(out, 'p');
    string(out, text);
    end(out, start);
  }

  static void saslInitialResponse(ByteBuf out, String mechanism, byte[] data) {
    int start = begin(out, 'p');
    string(out, mechanism);
    out.writeInt(data.length);
    out.writeBytes(data);
    end(out, start);
  }

  static void saslResponse(ByteBuf out, byte[] data) {
    int start = begin(out, 'p');
    out.writeBytes(data);
    end(out, start);
  }

  /** Parses {@code sql} (with $n placeholders) into the statement {@code name} ("" = unnamed). */
  static void parse(ByteBuf out, String name, String sql) {
    int start = begin(out, 'P');
    string(out, name);
    string(out, sql);
    out.writeShort(0); // no parameter types: the server infers them
    end(out, start);
  }

  /** Binds {@code values}, as text, to the unnamed portal of statement {@code name}. */
  static void bind(ByteBuf out, String name, Object[] values) {
    int start = begin(out, 'B');
    out.writeByte(0); // unnamed portal
    string(out, name);
    out.writeShort(0); // every parameter in text format
    out.writeShort(values.length);
    for (Object value : values) {
      if (value instanceof Integer || value instanceof Long || value instanceof Short) {
        integer(out, ((Number) value).longValue()); // keys and ids: no String on the way
        continue;
      }
      String text = PgValues.text(value);
      if (text == null) {
        out.writeInt(-1);
      } else {
        int length = out.writerIndex();
        out.writeInt(0);
        out.setInt(length, ByteBufUtil.writeUtf8(out, text));
      }
    }
    out.writeShort(0); // every result column in text format
    end(out, start);
  }

  /** A parameter value: {@code value} in decimal, as {@link Long#toString(long)} writes it. */
  static void integer(ByteBuf out, long value) {
    if (value == Long.MIN_VALUE) {
      out.writeInt(20);
      out.writeCharSequence("-9223372036854775808", StandardCharsets.US_ASCII);
      return;
    }
    long magnitude = Math.abs(value);
    int digits = 1;
    for (long rest = magnitude / 10; rest > 0; rest /= 10) {
      digits++;
    }
    int length = value < 0 ? digits + 1 : digits;
    out.writeInt(length);
    out.ensureWritable(length);
    int end = out.writerIndex() + length;
    for (int i = end - 1; i >= end - digits; i--) {
      out.setByte(i, (int) ('0' + magnitude % 10));
      magnitude /= 10;
    }
    if (value < 0) {
      out.setByte(end - digits - 1, '-');
    }
    out.writerIndex(end);
  }

  /** Asks for the unnamed portal's row description (only when a check reads a column). */
  static void describePortal(ByteBuf out) {
    int start = begin(out, 'D');
    out.writeByte('P');
    out.writeByte(0);
    end(out, start);
  }

  /** Runs the unnamed portal to its last row. */
  static void execute(ByteBuf out) {
    int start = begin(out, 'E');
    out.writeByte(0);
    out.writeInt(0);
    end(out, start);
  }

  /**
   * Ends a request: the server commits what came before (or rolls it back after an error) and
   * answers ReadyForQuery; after an error it skips everything up to here.
   */
  static void sync(ByteBuf out) {
    out.writeByte('S');
    out.writeInt(4);
  }

  /**
   * A CancelRequest, sent alone on a new connection: the server stops what the session of {@code
   * processId} is running (PostgreSQL's cancel key, from its BackendKeyData), then closes.
   */
  static void cancelRequest(ByteBuf out, int processId, int secretKey) {
    out.writeInt(16);
    out.writeInt(CANCEL_REQUEST_CODE);
    out.writeInt(processId);
    out.writeInt(secretKey);
  }

  private static final int CANCEL_REQUEST_CODE = 80877102;

  static void terminate(ByteBuf out) {
    out.writeByte('X');
    out.writeInt(4);
  }

  private static int begin(ByteBuf out, char type) {
    out.writeByte(type);
    int start = out.writerIndex();
    out.writeInt(0);
    return start;
  }

  private static void end(ByteBuf out, int start) {
    out.setInt(start, out.writerIndex() - start);
  }

  private static void string(ByteBuf out, String text) {
    ByteBufUtil.writeUtf8(out, text);
    out.writeByte(0);
  }
}
