package io.fusillade.logs;

/**
 * A deterministic, random-access source of log documents: document {@code i} depends only on the
 * source's seed and on {@code i}. Bulks can therefore be built by several threads at once, in any
 * order, and the data set is still the same for the same seed.
 *
 * <p>Implementations must be thread-safe (the built-in ones are immutable).
 */
public interface LogSource {

  /** The profile's name, for reports ({@code web}, {@code k8s}). */
  String name();

  /** Writes document {@code index} (from 0) as one JSON object, without a trailing newline. */
  void write(long index, JsonBuffer out);
}
