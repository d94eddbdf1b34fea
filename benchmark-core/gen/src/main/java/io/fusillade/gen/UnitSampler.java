package io.fusillade.gen;

/** Picks a real number in [0, 1): the shape of a distribution over a continuous range. */
@FunctionalInterface
public interface UnitSampler {

  /**
   * @param rng the stream to draw from
   * @return a value in [0, 1)
   */
  double unit(Rng rng);
}
