package io.fusillade.gen;

/**
 * Picks an offset in [0, n) into a range of n values: the shape of a distribution over a discrete
 * range, independent of what the values are (numbers, days, vocabulary entries, list items).
 */
@FunctionalInterface
public interface OffsetSampler {

  /**
   * @param rng the stream to draw from
   * @param sequence the number of values this generator has produced so far (for sequential and
   *     unique values; random distributions ignore it)
   * @return an offset in [0, n), unsigned
   */
  long offset(Rng rng, long sequence);
}
