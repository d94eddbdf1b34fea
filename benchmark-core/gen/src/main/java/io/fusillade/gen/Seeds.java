package io.fusillade.gen;

import java.nio.charset.StandardCharsets;

/**
 * Derives independent random streams from one run seed.
 *
 * <p>Every column, query parameter or field draws from its own stream, keyed by the run seed and
 * stable names ({@code table}, {@code column}). Adding or removing a column therefore never changes
 * the values of the others, and the same names give the same stream in every JVM: the name hash is
 * FNV-1a over UTF-8 bytes, not {@link String#hashCode()}, which is only 32 bits wide and collides
 * easily.
 */
public final class Seeds {

  /** The golden-ratio increment of SplitMix64 (Steele, Lea and Flood, 2014). */
  static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private static final long FNV_OFFSET = 0xCBF29CE484222325L;
  private static final long FNV_PRIME = 0x100000001B3L;

  private Seeds() {}

  /**
   * The SplitMix64 finaliser (Stafford's "Mix13"): a bijection on 64-bit values whose output bits
   * each depend on every input bit.
   *
   * @param z any value
   * @return its mix
   */
  public static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /**
   * A stable 64-bit hash of a name: FNV-1a over its UTF-8 bytes, then {@link #mix(long)} so that
   * similar names give unrelated hashes.
   *
   * @param name any text
   * @return the same value in every JVM and on every platform
   */
  public static long hash(String name) {
    long h = FNV_OFFSET;
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xFF)) * FNV_PRIME;
    }
    return mix(h);
  }

  /**
   * Combines a seed with a name into a new seed.
   *
   * @param seed a seed
   * @param name the label of the derived stream
   * @return the derived seed
   */
  public static long derive(long seed, String name) {
    return mix(mix(seed + GOLDEN) ^ hash(name));
  }

  /**
   * Combines a seed with a number (a virtual user's index, a round) into a new seed.
   *
   * @param seed a seed
   * @param index the number
   * @return the derived seed
   */
  public static long derive(long seed, long index) {
    return mix(mix(seed ^ 0x5DEECE66DL) + (index + 1) * GOLDEN);
  }

  /**
   * The seed of the stream of one column (or one query parameter) in a run.
   *
   * @param runSeed the run's seed
   * @param table the table (or query) name
   * @param column the column (or parameter) name
   * @return the column's stream seed
   */
  public static long stream(long runSeed, String table, String column) {
    // Length-prefixing the table name keeps ("a.b", "c") and ("a", "b.c") apart.
    return derive(runSeed, table.length() + ":" + table + "." + column);
  }
}
