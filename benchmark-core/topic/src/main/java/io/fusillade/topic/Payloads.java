package io.fusillade.topic;

import io.fusillade.gen.Rng;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Message values, prepared once per size and shared by every message of that size: sending a
 * message copies no payload (the Kafka client copies the bytes once, into its batch).
 *
 * <p>Contents are seeded random bytes (incompressible, repeatable). When sizes come from a wide
 * range, they are rounded down to a step so that at most {@value #BUDGET_BYTES} bytes of payloads
 * are held: {@link #step()} says by how much (1, exact sizes, for any range up to 0..11 KiB).
 */
public final class Payloads {
  /** The most memory the prepared payloads may take. */
  public static final long BUDGET_BYTES = 64L * 1024 * 1024;

  private final int minSize;
  private final int maxSize;
  private final int step;
  private final byte[] source;
  private final AtomicReferenceArray<byte[]> bySize;

  /**
   * @param seed the seed of the contents
   * @param minSize the smallest value, in bytes
   * @param maxSize the largest value, in bytes
   */
  public Payloads(long seed, int minSize, int maxSize) {
    if (minSize < 0 || maxSize < minSize) {
      throw new IllegalArgumentException(
          "message sizes must be 0 <= min <= max, got " + minSize + ".." + maxSize);
    }
    this.minSize = minSize;
    this.maxSize = maxSize;
    long distinct = (long) maxSize - minSize + 1;
    long perStep =
        Math.max(1, (long) Math.ceil(distinct * ((minSize + (double) maxSize) / 2) / BUDGET_BYTES));
    this.step = (int) Math.min(Integer.MAX_VALUE, perStep);
    this.bySize = new AtomicReferenceArray<>((int) ((distinct - 1) / step + 1));
    this.source = new byte[maxSize];
    Rng rng = new Rng(seed);
    for (int i = 0; i < maxSize; i += 8) {
      long v = rng.nextLong();
      for (int j = 0; j < 8 && i + j < maxSize; j++) {
        source[i + j] = (byte) (v >>> (8 * j));
      }
    }
  }

  /** Payloads of one fixed size. */
  public static Payloads fixed(long seed, int size) {
    return new Payloads(seed, size, size);
  }

  /** The rounding step of sizes (1: exact). */
  public int step() {
    return step;
  }

  /**
   * The shared value of {@code size} bytes (rounded down to the step). Do not modify it.
   *
   * @throws IllegalArgumentException when size is outside [min, max]
   */
  public byte[] of(int size) {
    if (size < minSize || size > maxSize) {
      throw new IllegalArgumentException(
          "message size " + size + " is outside " + minSize + ".." + maxSize);
    }
    int index = (size - minSize) / step;
    byte[] value = bySize.get(index);
    if (value == null) {
      byte[] created = new byte[minSize + index * step];
      System.arraycopy(source, 0, created, 0, created.length);
      bySize.compareAndSet(index, null, created);
      value = bySize.get(index);
    }
    return value;
  }
}
