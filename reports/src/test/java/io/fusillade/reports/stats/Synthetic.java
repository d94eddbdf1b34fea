package io.fusillade.reports.stats;

import java.util.Random;

/** Seeded normal samples for the synthetic tests. {@link Random#nextGaussian} is specified. */
final class Synthetic {

  private Synthetic() {}

  /** {@code n} values from N(mean, (cv · mean)²). */
  static double[] normal(Random random, int n, double mean, double cv) {
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = mean * (1 + cv * random.nextGaussian());
    }
    return v;
  }
}
