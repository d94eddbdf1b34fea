package io.fusillade.gen;

/**
 * A small, fast, seeded pseudo-random generator: SplitMix64 (Steele, Lea and Flood, 2014).
 *
 * <p>One {@code Rng} belongs to one stream of one thread; it is not thread-safe and is not meant to
 * be. Every method is allocation-free. The sequence depends only on the seed, so two JVMs given the
 * same seed draw the same values. Use {@link Seeds} to derive seeds for independent streams.
 */
public final class Rng {

  private long state;
  private double spareGaussian;
  private boolean hasSpareGaussian;

  /**
   * @param seed any 64-bit value; equal seeds give equal sequences
   */
  public Rng(long seed) {
    this.state = seed;
  }

  /**
   * Starts the stream again from {@code seed}, as a new {@code Rng(seed)} would, without
   * allocating: a value repeated over a block of rows is drawn from the block's own seed.
   *
   * @param seed the new seed
   */
  void reseed(long seed) {
    this.state = seed;
    this.hasSpareGaussian = false;
  }

  /**
   * @return the next 64 uniformly distributed bits
   */
  public long nextLong() {
    long z = (state += Seeds.GOLDEN);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /**
   * @return a uniform double in [0, 1) with 53 random bits
   */
  public double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }

  /**
   * A uniform value in [0, bound), where {@code bound} is read as an unsigned 64-bit number and 0
   * stands for 2<sup>64</sup>. Lemire's multiply-and-reject method: one multiplication, and a
   * division only in the rare case that a rejection is possible, so there is no modulo bias.
   *
   * @param bound the number of possible values, unsigned; 0 means all 2<sup>64</sup>
   * @return a value in [0, bound) as an unsigned number
   */
  public long nextUnsigned(long bound) {
    if (bound == 0) {
      return nextLong();
    }
    long x = nextLong();
    long low = x * bound;
    if (Long.compareUnsigned(low, bound) < 0) {
      long threshold = Long.remainderUnsigned(-bound, bound);
      while (Long.compareUnsigned(low, threshold) < 0) {
        x = nextLong();
        low = x * bound;
      }
    }
    return unsignedMultiplyHigh(x, bound);
  }

  /**
   * @param lo the smallest value
   * @param hi the largest value, at least {@code lo}
   * @return a uniform value in [lo, hi], both inclusive
   */
  public long nextLong(long lo, long hi) {
    return lo + nextUnsigned(hi - lo + 1);
  }

  /**
   * @param probability of {@code true}, in [0, 1]
   * @return {@code true} with the given probability
   */
  public boolean nextBoolean(double probability) {
    return nextDouble() < probability;
  }

  /**
   * A standard normal value, by Marsaglia's polar method. Values come in pairs; the second of a
   * pair is kept for the next call, which is why this method is stateful.
   *
   * @return a normal value with mean 0 and standard deviation 1
   */
  public double nextGaussian() {
    if (hasSpareGaussian) {
      hasSpareGaussian = false;
      return spareGaussian;
    }
    double u;
    double v;
    double s;
    do {
      u = 2 * nextDouble() - 1;
      v = 2 * nextDouble() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s == 0);
    double factor = Math.sqrt(-2 * Math.log(s) / s);
    spareGaussian = v * factor;
    hasSpareGaussian = true;
    return u * factor;
  }

  /**
   * Shuffles an array in place (Fisher–Yates), the same way for the same seed.
   *
   * @param values the array to shuffle
   */
  public void shuffle(int[] values) {
    for (int i = values.length - 1; i > 0; i--) {
      int j = (int) nextUnsigned(i + 1L);
      int tmp = values[i];
      values[i] = values[j];
      values[j] = tmp;
    }
  }

  /** The high 64 bits of the unsigned 128-bit product; Java 17 has only the signed variant. */
  static long unsignedMultiplyHigh(long x, long y) {
    return Math.multiplyHigh(x, y) + ((x >> 63) & y) + ((y >> 63) & x);
  }
}
