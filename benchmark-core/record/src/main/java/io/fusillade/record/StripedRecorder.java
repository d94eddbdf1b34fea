package io.fusillade.record;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * An interval recorder of latencies that several threads write without contending.
 *
 * <p>One HdrHistogram {@link Recorder} is shared by every writer: each value then costs several
 * atomic operations on cache lines that move between cores, ten times slower with two writing
 * threads than with one. Here each thread that records is given a stripe (its own recorder while
 * there are no more writing threads than stripes; threads beyond share, which stays correct), and
 * the reader adds the stripes' intervals together. A stripe is created when a thread first writes
 * to it, so a name written by one thread weighs one recorder.
 */
final class StripedRecorder {
  /** At least two per core, at least 4, at most 32: a power of two. */
  static final int STRIPES =
      Math.min(
          32,
          Math.max(
              4, Integer.highestOneBit(2 * Runtime.getRuntime().availableProcessors() - 1) * 2));

  private static final AtomicInteger THREADS = new AtomicInteger();
  // Threads are numbered in the order they first record anything, so that the first STRIPES of
  // them never share a stripe (thread ids, being sparse, would collide).
  private static final ThreadLocal<Integer> STRIPE_OF_THREAD =
      ThreadLocal.withInitial(() -> THREADS.getAndIncrement() & (STRIPES - 1));

  private final AtomicReferenceArray<Recorder> stripes = new AtomicReferenceArray<>(STRIPES);
  private final Histogram[] reuse = new Histogram[STRIPES]; // reader's, one per stripe

  /** Records a value in microseconds (already clamped to the trackable range). */
  void recordValue(long micros) {
    int index = STRIPE_OF_THREAD.get();
    Recorder stripe = stripes.get(index);
    if (stripe == null) {
      stripes.compareAndSet(index, null, Latencies.newRecorder());
      stripe = stripes.get(index);
    }
    stripe.recordValue(micros);
  }

  /**
   * The values recorded since the last call, from every stripe, in {@code into} (reset first) or a
   * new histogram. For the one reading thread only.
   */
  Histogram getIntervalHistogram(Histogram into) {
    Histogram merged = into != null ? into : Latencies.newHistogram();
    merged.reset();
    for (int i = 0; i < STRIPES; i++) {
      Recorder stripe = stripes.get(i);
      if (stripe != null) {
        reuse[i] = stripe.getIntervalHistogram(reuse[i]);
        merged.add(reuse[i]);
      }
    }
    return merged;
  }
}
