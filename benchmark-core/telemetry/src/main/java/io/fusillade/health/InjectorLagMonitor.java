package io.fusillade.health;

import io.fusillade.record.Latencies;
import io.fusillade.record.LatencyMetric;
import io.fusillade.record.RunRecorder;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Measures how late the load generator's own threads run.
 *
 * <p>On each executor (Gatling's event loops) a tick is scheduled every {@code period}; when it
 * runs, how late it is compared with when it was due is recorded in the {@value #METRIC} metric. An
 * event loop that is busy or starved of CPU starts users and sends requests late, so an open model
 * no longer produces the rate it promises and latencies measured on that loop are not trustworthy.
 * Nothing in Gatling reports this; this monitor does, and {@link #install} turns the p99 into a
 * verdict in {@code run.json}.
 *
 * <p>The verdict leaves out the JVM's warm-up: the first {@value #WARM_UP_MAX_SECONDS} seconds of
 * the run or its first half, whichever is shorter. While the JIT compiles the load generator's code
 * and class loading runs, every fresh JVM lags for a moment; counting it flagged healthy runs of a
 * second or less as saturated. A starved injector lags all along and is still flagged. The lag
 * metric itself keeps every tick: the charts show the warm-up.
 */
public final class InjectorLagMonitor implements AutoCloseable {
  /** The metric name of the lag in the run record. */
  public static final String METRIC = "injector.lag";

  /** The health entry of {@code run.json}. */
  public static final String HEALTH_KEY = "injectorLag";

  /** The warning written to {@code run.json} and printed when the injector was saturated. */
  public static final String SATURATED_WARNING =
      "injector saturated — latencies are not trustworthy";

  /** Default tick period. */
  public static final Duration DEFAULT_PERIOD = Duration.ofMillis(10);

  /** Default p99 lag above which the injector counts as saturated. */
  public static final Duration DEFAULT_THRESHOLD = Duration.ofMillis(20);

  /** The longest warm-up the verdict leaves out, in seconds. */
  public static final int WARM_UP_MAX_SECONDS = 5;

  /** The largest share of the run the warm-up may take: the verdict judges at least the rest. */
  public static final double WARM_UP_MAX_SHARE = 0.5;

  private final List<? extends ScheduledExecutorService> loops;
  private final LatencyMetric lag;
  private final long periodNanos;
  private final JudgedTicks judged = new JudgedTicks(System.nanoTime());
  private volatile boolean closed;

  private InjectorLagMonitor(
      List<? extends ScheduledExecutorService> loops, LatencyMetric lag, Duration period) {
    this.loops = List.copyOf(loops);
    this.lag = lag;
    this.periodNanos = period.toNanos();
  }

  /**
   * Starts ticking on every executor of {@code loops} and records the lag into {@code lag}. Stop
   * with {@link #close()}.
   */
  public static InjectorLagMonitor start(
      List<? extends ScheduledExecutorService> loops, LatencyMetric lag, Duration period) {
    InjectorLagMonitor monitor = new InjectorLagMonitor(loops, lag, period);
    for (ScheduledExecutorService loop : monitor.loops) {
      monitor.scheduleTick(loop);
    }
    return monitor;
  }

  /**
   * Starts a monitor that records into {@code run}'s {@value #METRIC} metric and, when the run
   * closes, writes the verdict against {@code threshold}: the lag percentiles under {@code
   * health.injectorLag} of {@code run.json}, and the {@link #SATURATED_WARNING} flag when the p99
   * exceeds it. The monitor stops when the run closes.
   */
  public static InjectorLagMonitor install(
      RunRecorder run,
      List<? extends ScheduledExecutorService> loops,
      Duration period,
      Duration threshold) {
    InjectorLagMonitor monitor = start(loops, run.metric(METRIC), period);
    run.onFinish(
        () -> {
          monitor.close();
          long end = System.nanoTime();
          InjectorHealth health =
              InjectorHealth.of(
                  monitor.judged.after(end),
                  threshold,
                  monitor.judged.warmUpNanos(end) / 1e6,
                  monitor.loops.size());
          run.health(HEALTH_KEY, health);
          if (health.saturated()) {
            run.flag(SATURATED_WARNING);
          }
        });
    return monitor;
  }

  private void scheduleTick(ScheduledExecutorService loop) {
    if (closed) {
      return;
    }
    long due = System.nanoTime() + periodNanos;
    try {
      loop.schedule(() -> tick(loop, due), periodNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException shuttingDown) {
      // the event loop is shutting down with the run: nothing left to measure
    }
  }

  private void tick(ScheduledExecutorService loop, long due) {
    long now = System.nanoTime();
    lag.record(due, now);
    judged.record(now, now - due);
    scheduleTick(loop);
  }

  /** Stops scheduling ticks (ticks already scheduled run once more and are recorded). */
  @Override
  public void close() {
    closed = true;
  }

  /**
   * The injector's health over a run, its warm-up left out.
   *
   * @param ticks how many ticks were judged (after the warm-up)
   * @param warmUpMs how long the warm-up left out was, from the start of the monitor
   * @param lateTicks how many of the judged ticks were later than the threshold: with the p99, what
   *     the verdict reads (see {@link #of(Histogram, Duration, double, int)}), recorded so that a
   *     report can say why a run with a high p99 was not saturated
   * @param eventLoops how many event loops were ticked: saturated takes {@value #MIN_LATE_TICKS}
   *     late ticks per loop
   */
  public record InjectorHealth(
      long ticks,
      double p50Ms,
      double p99Ms,
      double maxMs,
      double thresholdMs,
      boolean saturated,
      double warmUpMs,
      long lateTicks,
      int eventLoops) {

    /** The fewest ticks above the threshold that make a run saturated (see {@link #of}). */
    public static final int MIN_LATE_TICKS = 2;

    /** The verdict for a lag histogram (microseconds) against a p99 threshold, no warm-up. */
    public static InjectorHealth of(Histogram lagMicros, Duration threshold) {
      return of(lagMicros, threshold, 0);
    }

    /**
     * The verdict for the lag histogram (microseconds) of the ticks after the warm-up against a p99
     * threshold: saturated when the p99 is above the threshold and at least {@value
     * #MIN_LATE_TICKS} ticks were (over a short run, the p99 is a single tick).
     *
     * @param warmUpMs the warm-up left out of {@code lagMicros}, recorded beside the verdict
     */
    public static InjectorHealth of(Histogram lagMicros, Duration threshold, double warmUpMs) {
      return of(lagMicros, threshold, warmUpMs, 1);
    }

    /**
     * The same, for ticks of {@code loops} event loops: one stall of the whole machine delays a
     * tick of every loop at once, so it takes {@value #MIN_LATE_TICKS} late ticks per loop.
     */
    public static InjectorHealth of(
        Histogram lagMicros, Duration threshold, double warmUpMs, int loops) {
      double thresholdMs = threshold.toNanos() / 1e6;
      int perLoop = Math.max(1, loops);
      if (lagMicros.getTotalCount() == 0) {
        return new InjectorHealth(0, 0, 0, 0, thresholdMs, false, warmUpMs, 0, perLoop);
      }
      double p99 = lagMicros.getValueAtPercentile(99.0) / 1000.0;
      // Over fewer than 100 ticks (a run of a second or two) the p99 is the largest lag: one tick
      // the machine delayed (another process scheduled for 20 ms) would flag a healthy run. A
      // saturated injector lags again and again: it takes two late ticks (per event loop: a stall
      // of the machine delays every loop's tick at once).
      long thresholdMicros = threshold.toNanos() / 1_000;
      long late =
          lagMicros.getCountBetweenValues(
              lagMicros.nextNonEquivalentValue(thresholdMicros), lagMicros.getMaxValue());
      return new InjectorHealth(
          lagMicros.getTotalCount(),
          lagMicros.getValueAtPercentile(50.0) / 1000.0,
          p99,
          lagMicros.getMaxValue() / 1000.0,
          thresholdMs,
          p99 > thresholdMs && late >= (long) MIN_LATE_TICKS * perLoop,
          warmUpMs,
          late,
          perLoop);
    }
  }

  /**
   * The ticks the verdict judges. How long the warm-up is depends on how long the run lasts, known
   * only at its end: ticks of the first {@value #WARM_UP_MAX_SECONDS} seconds are kept one by one
   * (a few hundred per event loop), later ones go straight into a histogram. Thread-safe: every
   * event loop records here, about every 10 ms.
   */
  static final class JudgedTicks {
    private static final long WARM_UP_MAX_NANOS = WARM_UP_MAX_SECONDS * 1_000_000_000L;

    private final long startNanos;
    private final Histogram late = Latencies.newHistogram(); // guarded by this
    private long[] earlyAt = new long[256]; // guarded by this
    private long[] earlyLagMicros = new long[256]; // guarded by this
    private int early; // guarded by this

    JudgedTicks(long startNanos) {
      this.startNanos = startNanos;
    }

    /** One tick, run at {@code atNanos} ({@link System#nanoTime()}) and {@code lagNanos} late. */
    synchronized void record(long atNanos, long lagNanos) {
      long micros = Math.max(0, lagNanos / 1000);
      if (atNanos - startNanos >= WARM_UP_MAX_NANOS) {
        late.recordValue(Math.min(micros, late.getHighestTrackableValue()));
        return;
      }
      if (early == earlyAt.length) {
        earlyAt = Arrays.copyOf(earlyAt, early * 2);
        earlyLagMicros = Arrays.copyOf(earlyLagMicros, early * 2);
      }
      earlyAt[early] = atNanos;
      earlyLagMicros[early] = micros;
      early++;
    }

    /** The warm-up of a run that ends at {@code endNanos}. */
    long warmUpNanos(long endNanos) {
      long length = Math.max(0, endNanos - startNanos);
      return Math.min(WARM_UP_MAX_NANOS, (long) (length * WARM_UP_MAX_SHARE));
    }

    /** The lag (microseconds) of the ticks after the warm-up of a run that ends at endNanos. */
    synchronized Histogram after(long endNanos) {
      Histogram judged = late.copy();
      long from = startNanos + warmUpNanos(endNanos);
      for (int i = 0; i < early; i++) {
        if (earlyAt[i] >= from) {
          judged.recordValue(Math.min(earlyLagMicros[i], judged.getHighestTrackableValue()));
        }
      }
      return judged;
    }
  }
}
