package io.fusillade.topic;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A set of non-negative sequence numbers, one bit each, safe for concurrent use without locks: the
 * producer's I/O thread and consumer threads mark numbers while nothing blocks. Memory grows in
 * chunks of 64 Ki numbers (8 KiB) as numbers grow, up to 2^32 numbers.
 */
final class SequenceBits {
  private static final int CHUNK_BITS = 16;
  private static final int CHUNK_SIZE = 1 << CHUNK_BITS; // numbers per chunk
  private static final int WORDS = CHUNK_SIZE / 64;
  private static final int MAX_CHUNKS = 1 << 16;

  private final AtomicReferenceArray<AtomicLongArray> chunks =
      new AtomicReferenceArray<>(MAX_CHUNKS);

  /**
   * Adds {@code n}.
   *
   * @return true if it was not in the set yet
   */
  boolean add(long n) {
    AtomicLongArray chunk = chunk(n);
    int bit = (int) (n & (CHUNK_SIZE - 1));
    int word = bit >>> 6;
    long mask = 1L << (bit & 63);
    while (true) {
      long old = chunk.get(word);
      if ((old & mask) != 0) {
        return false;
      }
      if (chunk.compareAndSet(word, old, old | mask)) {
        return true;
      }
    }
  }

  boolean contains(long n) {
    if (n < 0 || (n >>> CHUNK_BITS) >= MAX_CHUNKS) {
      return false;
    }
    AtomicLongArray chunk = chunks.get((int) (n >>> CHUNK_BITS));
    if (chunk == null) {
      return false;
    }
    int bit = (int) (n & (CHUNK_SIZE - 1));
    return (chunk.get(bit >>> 6) & (1L << (bit & 63))) != 0;
  }

  /** How many numbers are in this set and not in {@code other}. */
  long countNotIn(SequenceBits other) {
    long count = 0;
    for (int c = 0; c < MAX_CHUNKS; c++) {
      AtomicLongArray mine = chunks.get(c);
      if (mine == null) {
        continue;
      }
      AtomicLongArray theirs = other.chunks.get(c);
      for (int w = 0; w < WORDS; w++) {
        long bits = mine.get(w);
        if (theirs != null) {
          bits &= ~theirs.get(w);
        }
        count += Long.bitCount(bits);
      }
    }
    return count;
  }

  /** How many numbers in [from, to) are in this set and not in {@code other}. */
  long countNotIn(SequenceBits other, long from, long to) {
    long count = 0;
    for (long n = Math.max(0, from); n < to; n++) {
      if ((n & (CHUNK_SIZE - 1)) == 0 && n + CHUNK_SIZE <= to) {
        int c = (int) (n >>> CHUNK_BITS);
        if (c >= MAX_CHUNKS) {
          break;
        }
        if (chunks.get(c) == null) {
          n += CHUNK_SIZE - 1; // nothing in this chunk
          continue;
        }
      }
      if (contains(n) && !other.contains(n)) {
        count++;
      }
    }
    return count;
  }

  /**
   * How many numbers below {@code to} are in this set and not in {@code other}, a word at a time.
   *
   * @param other the numbers left out, or null for none
   */
  long countBelow(long to, SequenceBits other) {
    long count = 0;
    for (int c = 0; c < MAX_CHUNKS && (long) c * CHUNK_SIZE < to; c++) {
      AtomicLongArray mine = chunks.get(c);
      if (mine == null) {
        continue;
      }
      AtomicLongArray theirs = other == null ? null : other.chunks.get(c);
      for (int w = 0; w < WORDS; w++) {
        long base = (long) c * CHUNK_SIZE + 64L * w;
        if (base >= to) {
          break;
        }
        long bits = mine.get(w);
        if (theirs != null) {
          bits &= ~theirs.get(w);
        }
        if (to - base < 64) {
          bits &= (1L << (to - base)) - 1;
        }
        count += Long.bitCount(bits);
      }
    }
    return count;
  }

  /** A copy of the set as it is now (for the record of an injector of several). */
  java.util.BitSet toBitSet() {
    int last = -1;
    for (int c = 0; c < MAX_CHUNKS; c++) {
      if (chunks.get(c) != null) {
        last = c;
      }
    }
    long[] words = new long[(last + 1) * WORDS];
    for (int c = 0; c <= last; c++) {
      AtomicLongArray chunk = chunks.get(c);
      if (chunk != null) {
        for (int w = 0; w < WORDS; w++) {
          words[c * WORDS + w] = chunk.get(w);
        }
      }
    }
    return java.util.BitSet.valueOf(words);
  }

  private AtomicLongArray chunk(long n) {
    if (n < 0 || (n >>> CHUNK_BITS) >= MAX_CHUNKS) {
      throw new IllegalArgumentException("sequence number out of range: " + n);
    }
    int index = (int) (n >>> CHUNK_BITS);
    AtomicLongArray chunk = chunks.get(index);
    if (chunk == null) {
      chunks.compareAndSet(index, null, new AtomicLongArray(WORDS));
      chunk = chunks.get(index);
    }
    return chunk;
  }
}
