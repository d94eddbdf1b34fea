package io.fusillade.gatling;

/**
 * When an arrival was due, carried in its session: Fusillade's actions count a request's latency
 * from it rather than from when the action ran, so an arrival sent late (its lane's event loop was
 * busy, it waited for room in a full lane) is charged the wait, as in an open model. Set by the one
 * pacer that sends every open-model arrival of the workload runners, for every protocol: the lanes
 * of {@link FusilladeArrivals} (constant rates, stages, ramps, spikes, steps, and a limit search's
 * changing rate through {@link FusilladeLimit}). A simulation of one's own that injects with
 * Gatling's own profiles ({@code injectOpen(constantUsersPerSec(...))}) has no due time: its
 * requests count from when their virtual user's action ran, which is when Gatling's injector
 * started the user (a timer of Gatling's firing late is not seen there).
 */
final class DueTime {
  /**
   * The session attribute: the due time on the {@link System#nanoTime()} clock, a Long, or a {@link
   * Refused} for an arrival its lane had no room for.
   */
  static final String ATTRIBUTE = "fusillade.due";

  /** The reason of the KO of an arrival a full lane refused: the injector's failure. */
  static final String LANE_FULL = "injector lane full";

  /** Set once a pacer exists: only then do the actions look for {@link #ATTRIBUTE}. */
  static volatile boolean active;

  /**
   * An arrival due at {@code due} that its lane, full, did not send: each request of its chain is
   * reported as a KO of the injector ({@link #LANE_FULL}) without being sent.
   */
  record Refused(long due) {}

  private DueTime() {}
}
