package io.fusillade.gen;

/**
 * A numbered, practically unbounded list of distinct strings: entry k is a pure function of k, the
 * alphabet, the length range and a key. Distributions pick entry numbers, so a Zipf column repeats
 * a few entries often, and a unique column maps distinct numbers to distinct strings.
 *
 * <p>Because the key comes from the run seed only (not from the column), every column and query
 * parameter of a run with the same alphabet and lengths shares one vocabulary: a query parameter
 * over entries [1, 15] hits the rows of a column over the same entries.
 *
 * <p>Layout of entry k, with A the alphabet size, m the minimum length and D = min(A<sup>m</sup>,
 * 2<sup>62</sup>): the first m characters spell P(k mod D) in base A, where P is a keyed {@link
 * Permutation} of [0, D) (so neighbouring entries look unrelated); the remaining characters spell k
 * / D in base A, at a fixed width, each digit shifted by a key- and prefix-dependent amount (so
 * padding does not repeat across entries). The length is drawn from the entry's hash within the
 * length range, but at least long enough for k / D. Both parts can be read back, so distinct
 * entries are distinct strings.
 */
public final class Vocabulary {

  private static final long CAP = 1L << 62;

  private final char[] alphabet;
  private final int minLength;
  private final int maxLength;
  private final long key;
  private final long prefixDomain;
  private final long capacity;
  private final Permutation prefixPermutation;

  /**
   * @param alphabet the characters
   * @param minLength the shortest length, at least 1
   * @param maxLength the longest length, at least {@code minLength}
   * @param key the vocabulary key (from the run seed)
   */
  public Vocabulary(Alphabet alphabet, int minLength, int maxLength, long key) {
    if (minLength < 1 || maxLength < minLength) {
      throw new IllegalArgumentException(
          "string length range [" + minLength + ", " + maxLength + "] is invalid");
    }
    this.alphabet = alphabet.characters().toCharArray();
    this.minLength = minLength;
    this.maxLength = maxLength;
    this.key = key;
    this.prefixDomain = cappedPower(this.alphabet.length, minLength);
    this.capacity = capacityOf(alphabet.size(), minLength, maxLength);
    this.prefixPermutation = new Permutation(prefixDomain, Seeds.mix(key ^ 0x70726566L));
  }

  /**
   * The number of distinct entries a vocabulary of this shape holds (capped at 2<sup>62</sup>).
   *
   * @param alphabetSize the number of characters
   * @param minLength the shortest length
   * @param maxLength the longest length
   * @return the capacity
   */
  public static long capacityOf(int alphabetSize, int minLength, int maxLength) {
    long prefix = cappedPower(alphabetSize, minLength);
    long suffix = cappedPower(alphabetSize, maxLength - minLength);
    return Math.multiplyHigh(prefix, suffix) != 0 || prefix * suffix >= CAP || prefix * suffix < 0
        ? CAP
        : prefix * suffix;
  }

  /**
   * @return the number of entries, at most 2<sup>62</sup>
   */
  public long capacity() {
    return capacity;
  }

  /**
   * @param k the entry number, in [0, capacity)
   * @return the entry
   */
  public String entry(long k) {
    if (k < 0 || k >= capacity) {
      throw new IllegalArgumentException("entry " + k + " is outside [0, " + capacity + ")");
    }
    int base = alphabet.length;
    long prefix = prefixPermutation.apply(k % prefixDomain);
    long suffix = k / prefixDomain;
    int suffixDigits = 0;
    for (long q = suffix; q > 0; q /= base) {
      suffixDigits++;
    }
    int spread = maxLength - minLength + 1;
    int extra = (int) Long.remainderUnsigned(Seeds.mix(key + k * Seeds.GOLDEN), spread);
    extra = Math.max(extra, suffixDigits);
    char[] out = new char[minLength + extra];
    long p = prefix;
    for (int i = 0; i < minLength; i++) {
      out[i] = alphabet[(int) (p % base)];
      p /= base;
    }
    long shiftSeed = Seeds.mix(key ^ prefix);
    long q = suffix;
    for (int i = 0; i < extra; i++) {
      int shift = (int) Long.remainderUnsigned(Seeds.mix(shiftSeed + i), base);
      out[minLength + i] = alphabet[(int) ((q % base + shift) % base)];
      q /= base;
    }
    return new String(out);
  }

  private static long cappedPower(int base, int exponent) {
    long result = 1;
    for (int i = 0; i < exponent; i++) {
      if (result > CAP / base) {
        return CAP;
      }
      result *= base;
    }
    return result;
  }
}
