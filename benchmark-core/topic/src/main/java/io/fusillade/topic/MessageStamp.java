package io.fusillade.topic;

/**
 * What every message Fusillade produces carries in its {@value #HEADER} header, so that the
 * consumer can measure end-to-end latency and check delivery without touching the payload.
 *
 * <p>The send time is a {@link System#nanoTime()} reading of the injector: producers and consumers
 * run in the same JVM, so end-to-end latency is measured on one monotonic clock and needs no clock
 * synchronisation (and is not disturbed by wall-clock adjustments). In a test of several injectors,
 * whose readers read each other's messages, it is that reading moved onto the test's reference
 * clock ({@link TopicShare#clockBaseNanos()}), and so is the reader's.
 *
 * @param producerId the sending stream: a per-run random prefix (high 32 bits) and the index of the
 *     sending thread (low 32 bits), so messages of earlier runs in the same topic are told apart
 * @param sequence the message's number among the messages of this producer to this partition: 0, 1,
 *     2, ... in send order
 * @param sendNanos {@link System#nanoTime()} when the message was sent
 */
public record MessageStamp(long producerId, long sequence, long sendNanos) {
  /** The header's key. */
  public static final String HEADER = "fusillade.stamp";

  /** The header value's length in bytes. */
  public static final int LENGTH = 24;

  /**
   * @return the header value: three big-endian longs
   */
  public byte[] encode() {
    return encode(producerId, sequence, sendNanos);
  }

  /** Encodes a stamp without creating the record. */
  public static byte[] encode(long producerId, long sequence, long sendNanos) {
    byte[] out = new byte[LENGTH];
    put(out, 0, producerId);
    put(out, 8, sequence);
    put(out, 16, sendNanos);
    return out;
  }

  /**
   * @param value a header value
   * @return the stamp, or null if {@code value} is not a stamp
   */
  public static MessageStamp decode(byte[] value) {
    if (value == null || value.length != LENGTH) {
      return null;
    }
    return new MessageStamp(get(value, 0), get(value, 8), get(value, 16));
  }

  private static void put(byte[] out, int at, long v) {
    for (int i = 7; i >= 0; i--) {
      out[at + i] = (byte) v;
      v >>>= 8;
    }
  }

  private static long get(byte[] in, int at) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (in[at + i] & 0xFF);
    }
    return v;
  }
}
