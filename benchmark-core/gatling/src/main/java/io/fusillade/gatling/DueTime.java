package io.fusillade.gatling;

/**
 * When an arrival was due, carried in its session: Fusillade's actions count a request's latency
 * from it rather than from when the action ran, so an arrival sent late (its timer fired late, it
 * waited for a free lane) is charged the wait, as in an open model. Set by the pacers that send
 * arrivals themselves ({@link FusilladeArrivals}, {@link LimitPacer}). With Gatling's own injection
 * a request's latency counts from when its virtual user started (Gatling's timer firing late is not
 * seen there).
 */
final class DueTime {
  /** The session attribute: the due time on the {@link System#nanoTime()} clock, a Long. */
  static final String ATTRIBUTE = "fusillade.due";

  /** Set once a pacer exists: only then do the actions look for {@link #ATTRIBUTE}. */
  static volatile boolean active;

  private DueTime() {}
}
