package io.fusillade.record;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The one place that fixes how latencies are stored: microseconds, from 1 µs to one hour, three
 * significant digits (0.1% resolution), in HdrHistogram.
 */
public final class Latencies {
  /** The largest latency a histogram holds; longer values are clamped to it. */
  public static final long HIGHEST_TRACKABLE_MICROS = TimeUnit.HOURS.toMicros(1);

  /** Significant digits of every latency histogram. */
  public static final int SIGNIFICANT_DIGITS = 3;

  /**
   * The ratio that turns a stored value into milliseconds, used for the "max" column of the
   * interval log.
   */
  public static final double MICROS_PER_MILLI = 1000.0;

  private Latencies() {}

  /** A new, empty histogram of the standard shape. */
  public static Histogram newHistogram() {
    return new Histogram(HIGHEST_TRACKABLE_MICROS, SIGNIFICANT_DIGITS);
  }

  /** A new, empty interval recorder of the standard shape, for one stripe of a writer's values. */
  static Recorder newRecorder() {
    return new Recorder(HIGHEST_TRACKABLE_MICROS, SIGNIFICANT_DIGITS);
  }

  /**
   * The duration between two {@link System#nanoTime()} readings in whole microseconds, clamped to
   * the trackable range (a negative duration, which a sane clock never gives, counts as zero).
   */
  public static long micros(long startNanos, long endNanos) {
    long micros = (endNanos - startNanos) / 1_000;
    if (micros < 0) {
      return 0;
    }
    return Math.min(micros, HIGHEST_TRACKABLE_MICROS);
  }

  /** Clamps a value in microseconds to the trackable range. */
  public static long clampMicros(long micros) {
    return Math.max(0, Math.min(micros, HIGHEST_TRACKABLE_MICROS));
  }
}
