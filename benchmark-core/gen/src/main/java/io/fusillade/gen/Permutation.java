package io.fusillade.gen;

/**
 * A keyed pseudo-random bijection of [0, n) onto itself: the source of unique values.
 *
 * <p>A balanced Feistel network permutes the smallest even-width power-of-two domain that holds
 * {@code n}; values that land outside [0, n) are encrypted again ("cycle walking") until they fall
 * inside, which keeps the map a bijection of [0, n). The domain is less than 4n, so a call takes at
 * most a few rounds on average. Unique columns map their sequence number through it, so values look
 * random yet never repeat, with no memory of the values already given out.
 */
public final class Permutation {

  private static final int ROUNDS = 6;

  private final long size;
  private final int halfBits;
  private final long halfMask;
  private final long[] roundKeys = new long[ROUNDS];

  /**
   * @param size the domain size n, read as unsigned; 0 stands for 2<sup>64</sup>
   * @param key the permutation's key; different keys give unrelated permutations
   */
  public Permutation(long size, long key) {
    this.size = size;
    int bits = size == 0 ? 64 : 64 - Long.numberOfLeadingZeros(Math.max(1, size - 1));
    this.halfBits = Math.max(1, (bits + 1) / 2);
    this.halfMask = halfBits == 32 ? 0xFFFFFFFFL : (1L << halfBits) - 1;
    long k = key;
    for (int i = 0; i < ROUNDS; i++) {
      k = Seeds.mix(k + Seeds.GOLDEN);
      roundKeys[i] = k;
    }
  }

  /**
   * @return the domain size, unsigned (0 means 2<sup>64</sup>)
   */
  public long size() {
    return size;
  }

  /**
   * @param index a value in [0, n), unsigned
   * @return its image in [0, n); distinct inputs give distinct outputs
   */
  public long apply(long index) {
    long x = encrypt(index);
    if (size != 0) {
      while (Long.compareUnsigned(x, size) >= 0) {
        x = encrypt(x);
      }
    }
    return x;
  }

  private long encrypt(long x) {
    long left = (x >>> halfBits) & halfMask;
    long right = x & halfMask;
    for (long roundKey : roundKeys) {
      long next = left ^ (Seeds.mix(right ^ roundKey) & halfMask);
      left = right;
      right = next;
    }
    return (left << halfBits) | right;
  }
}
