package io.fusillade.gatling;

/**
 * Work a forked run begins before Gatling has started, found with {@link java.util.ServiceLoader}
 * by {@link GatlingMain}: typically an embedded server, whose start would otherwise wait for the
 * simulation's constructor, 1 s into the fork on a two-core machine, and then keep the first
 * request waiting as long again. Begun this way, it starts while Gatling loads.
 *
 * <p>An implementation decides at once, from the simulation's class name and the system properties,
 * whether the run is one of its own; if so it hands the work to an {@link EarlyValue}, which the
 * simulation then {@linkplain EarlyValue#take() takes} where it would have started the server
 * itself. It must not throw, and must not report a user's mistake: the simulation meets the same
 * input again and reports it as it always did.
 */
public interface EarlyStart {
  /**
   * Begins this run's early work, if any, without waiting for it.
   *
   * @param simulation the class name Gatling was given ({@code -s})
   */
  void begin(String simulation);
}
