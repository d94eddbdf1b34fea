package io.fusillade.record;

import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Receives what the run recorded in each flushed interval (once a second), as it is written to the
 * run record: the way to watch a run live (the Prometheus endpoint of {@code fusillade-gatling})
 * without adding work per request. Register one with {@link RunRecorder#listen(FlushListener)}.
 *
 * <p>The calls of one interval come in this order, on the recorder's flushing thread and under its
 * lock: {@link #request} for every request name that moved, {@link #requestsEnd} once every request
 * name's interval is taken, {@link #metric} for every metric that recorded a value, {@link
 * #counter} for every counter, {@link #gauge} for every gauge that had a finite value, then {@link
 * #intervalEnd}. The last interval is delivered when the run closes, before {@link #closed}. Keep
 * each call short (it delays the record's write) and do not keep the histograms: the recorder
 * reuses them for the next interval. An exception thrown by a listener is logged and does not stop
 * the record.
 *
 * <p>Latencies are in microseconds, from the intended start (see {@link RequestChannel}), exactly
 * as written to {@code latency.hlog}; counts are the interval's, not totals.
 */
public interface FlushListener {

  /**
   * One request name's interval.
   *
   * @param name the request name
   * @param sent requests entered in the interval
   * @param ok the interval's OK latencies (may be empty)
   * @param ko the interval's KO latencies, or null when this name never failed
   * @param errors KO count by reason text in the interval (empty when none)
   */
  default void request(
      String name, long sent, Histogram ok, Histogram ko, Map<String, Long> errors) {}

  /**
   * Every request name's interval of this flush has been taken: a request recorded from now on
   * counts in the next interval. The moment to note what must agree with this interval's request
   * counts (a topic's acknowledgements, noted before their requests are recorded), as close to that
   * cut as a listener can be.
   */
  default void requestsEnd() {}

  /**
   * A latency-like metric's interval ({@link RunRecorder#metric}: injector lag, end-to-end
   * latency), when it recorded any value.
   */
  default void metric(String name, Histogram interval) {}

  /** A counter's increase in the interval ({@link RunRecorder#counter}). */
  default void counter(String name, long delta) {}

  /** A gauge's value this interval ({@link RunRecorder#gauge}: consumer lag, CPU, pool usage). */
  default void gauge(String name, double value) {}

  /**
   * The interval ended.
   *
   * @param epochMs when it ended
   * @param elapsedSeconds time since the run opened
   */
  default void intervalEnd(long epochMs, double elapsedSeconds) {}

  /**
   * The run closed, after its last interval.
   *
   * @param status how it ended
   */
  default void closed(RunStatus status) {}
}
