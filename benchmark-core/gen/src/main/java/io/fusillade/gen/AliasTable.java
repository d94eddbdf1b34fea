package io.fusillade.gen;

import java.util.List;

/**
 * Samples index i with probability w<sub>i</sub> / Σw in O(1): Walker's alias method, built with
 * Vose's stable construction. Used for weighted choices.
 */
public final class AliasTable {

  private final double[] probability;
  private final int[] alias;

  /**
   * @param weights non-negative weights, at least one positive
   */
  public AliasTable(List<Double> weights) {
    int n = weights.size();
    double total = 0;
    for (double w : weights) {
      if (!(w >= 0) || Double.isInfinite(w)) {
        throw new IllegalArgumentException("weights must be finite and non-negative: " + weights);
      }
      total += w;
    }
    if (!(total > 0)) {
      throw new IllegalArgumentException("at least one weight must be positive: " + weights);
    }
    probability = new double[n];
    alias = new int[n];
    double[] scaled = new double[n];
    int[] small = new int[n];
    int[] large = new int[n];
    int smallCount = 0;
    int largeCount = 0;
    for (int i = 0; i < n; i++) {
      scaled[i] = weights.get(i) * n / total;
      if (scaled[i] < 1) {
        small[smallCount++] = i;
      } else {
        large[largeCount++] = i;
      }
    }
    while (smallCount > 0 && largeCount > 0) {
      int s = small[--smallCount];
      int l = large[--largeCount];
      probability[s] = scaled[s];
      alias[s] = l;
      scaled[l] = scaled[l] + scaled[s] - 1;
      if (scaled[l] < 1) {
        small[smallCount++] = l;
      } else {
        large[largeCount++] = l;
      }
    }
    // What is left is 1 up to rounding errors.
    while (largeCount > 0) {
      probability[large[--largeCount]] = 1;
    }
    while (smallCount > 0) {
      probability[small[--smallCount]] = 1;
    }
  }

  /**
   * @param rng the stream to draw from
   * @return an index, with the probability of its weight
   */
  public int sample(Rng rng) {
    int i = (int) rng.nextUnsigned(probability.length);
    return rng.nextDouble() < probability[i] ? i : alias[i];
  }
}
