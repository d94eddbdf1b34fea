package io.fusillade.logs;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Builds {@code _bulk} bodies (NDJSON: an action line, then the document, each ending with a
 * newline) straight into a {@link JsonBuffer}, and gzips them into another. One instance per
 * thread: it keeps its {@link Deflater}.
 */
public final class BulkBodies implements AutoCloseable {
  /** The action line of each document: index into the URL's index with a generated id. */
  public static final byte[] INDEX_ACTION = "{\"index\":{}}\n".getBytes(StandardCharsets.US_ASCII);

  private static final byte[] GZIP_HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};

  private final Deflater deflater;
  private final CRC32 crc = new CRC32();

  /** Bodies compressed at {@link Deflater#BEST_SPEED}, as log shippers usually do. */
  public BulkBodies() {
    this(Deflater.BEST_SPEED);
  }

  /**
   * @param gzipLevel the deflate level, 0-9
   */
  public BulkBodies(int gzipLevel) {
    this.deflater = new Deflater(gzipLevel, true);
  }

  /**
   * Appends documents {@code [first, first + count)} of {@code source}, each after an {@link
   * #INDEX_ACTION} line.
   *
   * @return the number of bytes appended
   */
  public static int append(LogSource source, long first, int count, JsonBuffer out) {
    int before = out.length();
    for (int i = 0; i < count; i++) {
      out.raw(INDEX_ACTION);
      source.write(first + i, out);
      out.raw((byte) '\n');
    }
    return out.length() - before;
  }

  /** Replaces {@code out}'s content with {@code in}'s content gzipped (RFC 1952). */
  public void gzip(JsonBuffer in, JsonBuffer out) {
    out.reset();
    out.raw(GZIP_HEADER);
    deflater.reset();
    deflater.setInput(in.array(), 0, in.length());
    deflater.finish();
    while (!deflater.finished()) {
      out.ensure(Math.max(8192, in.length() / 4));
      byte[] target = out.array();
      int written = deflater.deflate(target, out.length(), target.length - out.length());
      out.skip(written);
    }
    crc.reset();
    crc.update(in.array(), 0, in.length());
    int sum = (int) crc.getValue();
    int size = in.length();
    out.raw((byte) sum).raw((byte) (sum >>> 8)).raw((byte) (sum >>> 16)).raw((byte) (sum >>> 24));
    out.raw((byte) size).raw((byte) (size >>> 8)).raw((byte) (size >>> 16));
    out.raw((byte) (size >>> 24));
  }

  @Override
  public void close() {
    deflater.end();
  }
}
