package io.fusillade.workload;

import io.fusillade.record.RunSettings;
import io.fusillade.record.RunSettings.Mode;
import io.fusillade.record.RunSettings.Spike;
import io.fusillade.record.RunSettings.Stage;
import java.time.Duration;
import java.util.List;

/**
 * The {@code load} section of a workload with queries: how {@code fusillade run} sends them. Every
 * component may be unset (null): the command line's option, else the runner's default, applies
 * ({@code fusillade run}'s options override the file). Log and topic workloads state their load in
 * their own sections ({@code logs.rate}, {@code topics[i].rate}), so they have no {@code load}.
 *
 * <pre>{@code
 * load: {mode: rate, rate: 200, duration: 60s, spike: {peak: 1000, rise: 10s, hold: 30s}}
 * load: {mode: queue, users: 16}
 * load:
 *   stages:
 *     - {ramp: 0..200, over: 10s}
 *     - {hold: 200, for: 60s}
 *     - {spike: 1000, for: 10s}
 * }</pre>
 *
 * @param mode {@link Mode#QUEUE} or {@link Mode#RATE}; null when neither {@code load.mode} nor
 *     {@code config_name: QUEUE} says (then rate)
 * @param users virtual users in queue mode
 * @param rate arrivals per second in rate mode
 * @param duration how long the rate holds in rate mode
 * @param spike a spike after the constant phase in rate mode, or null
 * @param stages rate mode's profile as ramps and holds (a spike is a hold at its peak), instead of
 *     rate, duration and spike; empty for none
 */
public record Load(
    Mode mode, Integer users, Double rate, Duration duration, Spike spike, List<Stage> stages) {

  /** Nothing said: every setting from the command line or the runner's defaults. */
  public static final Load NONE = new Load(null, null, null, null, null, List.of());

  /** Copies the list. */
  public Load {
    stages = stages == null ? List.of() : List.copyOf(stages);
  }

  /** A load without stages. */
  public Load(Mode mode, Integer users, Double rate, Duration duration, Spike spike) {
    this(mode, users, rate, duration, spike, List.of());
  }

  /**
   * These settings under the ones already given: a setting of {@code given} that is set wins (the
   * command line overrides the file). The file's stages apply only when {@code given} has neither
   * rate, duration, spike nor stages: a rate profile on the command line replaces the file's.
   *
   * @param given settings from the command line
   * @return the merged settings
   */
  public RunSettings under(RunSettings given) {
    return given
        .withMode(given.mode() != null ? given.mode() : mode)
        .withUsers(given.users() != null ? given.users() : users)
        .withRate(given.rate() != null ? given.rate() : rate)
        .withDuration(given.duration() != null ? given.duration() : duration)
        .withSpike(given.spike() != null ? given.spike() : spike)
        .withStages(
            given.rate() != null
                    || given.duration() != null
                    || given.spike() != null
                    || !given.stages().isEmpty()
                ? given.stages()
                : stages);
  }
}
