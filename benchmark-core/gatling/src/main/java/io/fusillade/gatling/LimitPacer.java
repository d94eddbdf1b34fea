package io.fusillade.gatling;

import io.fusillade.limit.LimitWatch;
import io.fusillade.record.LatencyMetric;
import java.time.Duration;
import java.util.List;

/**
 * The pace of a limit search: the rate of its arrivals changes while the run goes on, which
 * Gatling's injection profiles (fixed before the run) cannot do, so its arrivals are sent by the
 * lanes of {@link FusilladeArrivals} as every other open-model arrival is, on an open plan: each
 * new rate is a new schedule from the moment it is set ({@link ArrivalLanes#replan}), and arrivals
 * of the old rate not yet sent are not sent (their step is over; they are counted as unsent).
 *
 * <p>At most the search's {@code lanes} requests are in flight: an arrival due when its lane is
 * full waits for room, and its latency counts from its due time, so an arrival that waited for a
 * slow system is charged its wait, exactly as in an open model: coordinated omission is not hidden
 * by the bounded concurrency. How late a lane sent an arrival it had room for is the injector's own
 * lag, recorded in {@code injector.pace.lag} and judged beside the event loops' {@code
 * injector.lag} (a starved injector then fails the step as the injector's, never the system's).
 */
final class LimitPacer implements LimitWatch.Pace, AutoCloseable {
  /**
   * How long an open plan's schedule runs: longer than any search (a new rate replaces it first).
   */
  private static final Duration FOREVER = Duration.ofDays(7);

  private final ArrivalLanes lanes;

  LimitPacer(ArrivalLanes lanes) {
    this.lanes = lanes;
  }

  /** {@code perSecond} arrivals a second from its start, for longer than any search. */
  static ArrivalSchedule schedule(double perSecond) {
    return new ArrivalSchedule(List.of(ArrivalSchedule.Segment.constant(perSecond, FOREVER)));
  }

  /** Records how late the lanes sent arrivals they had room for into {@code metric}. */
  void lagInto(LatencyMetric metric) {
    lanes.lagInto(metric);
  }

  @Override
  public void rate(double perSecond) {
    lanes.replan(schedule(Math.max(0, perSecond)));
  }

  @Override
  public void pause() {
    rate(0);
  }

  /** No request is in flight. */
  @Override
  public boolean drained() {
    return lanes.drained();
  }

  @Override
  public void finish() {
    lanes.finish();
  }

  @Override
  public void close() {
    finish();
  }
}
