package io.fusillade.logs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer that JSON is written into directly as UTF-8: strings are escaped and
 * encoded character by character, numbers are written digit by digit. Nothing is allocated per
 * value once the buffer has grown to its working size, which is why bulk bodies are built here and
 * not by concatenating strings or calling a JSON library per document.
 *
 * <p>Reuse one buffer for many bodies with {@link #reset()}. Not thread-safe.
 */
public final class JsonBuffer {
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] MIN_LONG =
      Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

  private byte[] bytes;
  private int length;

  /** A buffer with room for {@code capacity} bytes before it first grows. */
  public JsonBuffer(int capacity) {
    this.bytes = new byte[Math.max(16, capacity)];
  }

  public JsonBuffer() {
    this(64 * 1024);
  }

  /** Empties the buffer, keeping its capacity. */
  public JsonBuffer reset() {
    length = 0;
    return this;
  }

  /** The number of bytes written. */
  public int length() {
    return length;
  }

  /** The backing array; bytes {@code [0, length())} are the content. Valid until the next write. */
  public byte[] array() {
    return bytes;
  }

  /** A copy of the content. */
  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, length);
  }

  /** The content decoded as UTF-8 (for tests and small bodies). */
  @Override
  public String toString() {
    return new String(bytes, 0, length, StandardCharsets.UTF_8);
  }

  /** Writes the content to a stream. */
  public void writeTo(OutputStream out) throws IOException {
    out.write(bytes, 0, length);
  }

  /** Makes room for {@code more} bytes. */
  public void ensure(int more) {
    int needed = length + more;
    if (needed < 0) {
      throw new IllegalStateException("a JSON buffer cannot exceed 2 GiB");
    }
    if (needed > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(needed, bytes.length + (bytes.length >> 1)));
    }
  }

  /**
   * Counts {@code count} bytes that were written into {@link #array()} past {@link #length()}
   * directly (after {@link #ensure(int)}), by a compressor for instance.
   */
  void skip(int count) {
    if (count < 0 || length + count > bytes.length) {
      throw new IllegalArgumentException("cannot skip " + count + " bytes");
    }
    length += count;
  }

  /** One raw byte. */
  public JsonBuffer raw(byte b) {
    ensure(1);
    bytes[length++] = b;
    return this;
  }

  /** Raw bytes, already valid JSON (a precomputed key, a quoted constant). */
  public JsonBuffer raw(byte[] data) {
    return raw(data, 0, data.length);
  }

  /** Raw bytes {@code [offset, offset + count)}. */
  public JsonBuffer raw(byte[] data, int offset, int count) {
    ensure(count);
    System.arraycopy(data, offset, bytes, length, count);
    length += count;
    return this;
  }

  /** ASCII text written as is, without quotes or escaping: only for trusted constants. */
  public JsonBuffer ascii(String text) {
    int n = text.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      bytes[length++] = (byte) text.charAt(i);
    }
    return this;
  }

  /** A whole number in decimal. */
  public JsonBuffer number(long value) {
    if (value == Long.MIN_VALUE) {
      return raw(MIN_LONG);
    }
    ensure(20);
    if (value < 0) {
      bytes[length++] = '-';
      value = -value;
    }
    int digits = digits(value);
    int end = length + digits;
    int p = end;
    do {
      bytes[--p] = (byte) ('0' + (value % 10));
      value /= 10;
    } while (value != 0);
    length = end;
    return this;
  }

  private static int digits(long value) {
    int d = 1;
    for (long limit = 10; d < 19 && value >= limit; limit *= 10) {
      d++;
    }
    return d;
  }

  /** {@code null}, or the string quoted, JSON-escaped and encoded as UTF-8. */
  public JsonBuffer string(CharSequence text) {
    if (text == null) {
      return ascii("null");
    }
    int n = text.length();
    // Worst case: 6 bytes per char (\\u00XX), plus the quotes.
    ensure(n * 6 + 2);
    byte[] b = bytes;
    int p = length;
    b[p++] = '"';
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c != '"' && c != '\\') {
          b[p++] = (byte) c;
        } else {
          p = escape(b, p, c);
        }
      } else if (c < 0x800) {
        b[p++] = (byte) (0xC0 | (c >> 6));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, text.charAt(++i));
        b[p++] = (byte) (0xF0 | (cp >> 18));
        b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        b[p++] = (byte) (0x80 | (cp & 0x3F));
      } else {
        // A lone surrogate has no UTF-8 form: write U+FFFD, as Java's own encoder does ('?').
        char d = Character.isSurrogate(c) ? '\uFFFD' : c;
        b[p++] = (byte) (0xE0 | (d >> 12));
        b[p++] = (byte) (0x80 | ((d >> 6) & 0x3F));
        b[p++] = (byte) (0x80 | (d & 0x3F));
      }
    }
    b[p++] = '"';
    length = p;
    return this;
  }

  private static int escape(byte[] b, int p, char c) {
    b[p++] = '\\';
    switch (c) {
      case '"' -> b[p++] = '"';
      case '\\' -> b[p++] = '\\';
      case '\n' -> b[p++] = 'n';
      case '\r' -> b[p++] = 'r';
      case '\t' -> b[p++] = 't';
      case '\b' -> b[p++] = 'b';
      case '\f' -> b[p++] = 'f';
      default -> {
        b[p++] = 'u';
        b[p++] = '0';
        b[p++] = '0';
        b[p++] = HEX[(c >> 4) & 0xF];
        b[p++] = HEX[c & 0xF];
      }
    }
    return p;
  }

  /** The JSON form of a string (quoted, escaped, UTF-8): for precomputing constant values. */
  public static byte[] quoted(CharSequence text) {
    return new JsonBuffer(text.length() * 2 + 8).string(text).toByteArray();
  }
}
