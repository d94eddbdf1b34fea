package io.fusillade.health;

import io.fusillade.record.LatencyMetric;
import io.fusillade.record.RunRecorder;
import java.time.Duration;
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
 * Nothing in Gatling reports this; this monitor does, and {@link #install} turns the whole-run p99
 * into a verdict in {@code run.json}.
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

  private final List<? extends ScheduledExecutorService> loops;
  private final LatencyMetric lag;
  private final long periodNanos;
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
          InjectorHealth health = InjectorHealth.of(run.metricTotal(METRIC), threshold);
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
    lag.record(due, System.nanoTime());
    scheduleTick(loop);
  }

  /** Stops scheduling ticks (ticks already scheduled run once more and are recorded). */
  @Override
  public void close() {
    closed = true;
  }

  /**
   * The injector's health over a run.
   *
   * @param ticks how many ticks were measured
   */
  public record InjectorHealth(
      long ticks, double p50Ms, double p99Ms, double maxMs, double thresholdMs, boolean saturated) {

    /** The verdict for a whole-run lag histogram (microseconds) against a p99 threshold. */
    public static InjectorHealth of(Histogram lagMicros, Duration threshold) {
      double thresholdMs = threshold.toNanos() / 1e6;
      if (lagMicros.getTotalCount() == 0) {
        return new InjectorHealth(0, 0, 0, 0, thresholdMs, false);
      }
      double p99 = lagMicros.getValueAtPercentile(99.0) / 1000.0;
      return new InjectorHealth(
          lagMicros.getTotalCount(),
          lagMicros.getValueAtPercentile(50.0) / 1000.0,
          p99,
          lagMicros.getMaxValue() / 1000.0,
          thresholdMs,
          p99 > thresholdMs);
    }
  }
}
