package io.fusillade.limit;

import io.fusillade.record.SettingValues;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The steps a limit search is chained with, seed 000's "minimum time" around its "maximum speed"
 * ({@link LimitChainWatch}): first an idle step at a trickle ({@code idleRate}, the seed's 100
 * Kbit/s), then the search, then a step at a share of the rate the search found ({@code latencyAt},
 * the seed's 1/3). The two extra steps are measured, not searched: their end-to-end latency and
 * whether the readers kept up.
 *
 * @param idleRate the idle step's rate, messages per second
 * @param idle how long the idle step lasts
 * @param latencyAt the share of the rate found the last step runs at (0.33: a third)
 * @param latencyStep how long that step lasts
 */
public record LimitChain(double idleRate, Duration idle, double latencyAt, Duration latencyStep) {

  /**
   * @throws IllegalArgumentException naming the setting when a value is out of its range
   */
  public LimitChain {
    require(idleRate > 0 && Double.isFinite(idleRate), "idle-rate", "must be above 0: " + idleRate);
    require(idle.toMillis() >= 3000, "idle", "must be at least 3s: " + idle);
    require(
        latencyAt > 0 && latencyAt < 1,
        "then-latency-at",
        "must be a share above 0 and below 1 (0.33: a third of the maximum): " + latencyAt);
    require(latencyStep.toMillis() >= 3000, "latency-step", "must be at least 3s: " + latencyStep);
  }

  private static void require(boolean ok, String name, String message) {
    if (!ok) {
      throw new IllegalArgumentException("--" + name + " " + message);
    }
  }

  /** Whole seconds of the idle step (the record flushes once a second). */
  public int idleSeconds() {
    return (int) Math.max(3, Math.round(idle.toMillis() / 1000.0));
  }

  /** Whole seconds of the step at a share of the maximum. */
  public int latencySeconds() {
    return (int) Math.max(3, Math.round(latencyStep.toMillis() / 1000.0));
  }

  /** The settings as {@code run.json} records them (in the {@code chain} parameter). */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("idleRate", idleRate);
    m.put("idle", SettingValues.formatDuration(idle));
    m.put("latencyAt", latencyAt);
    m.put("latencyStep", SettingValues.formatDuration(latencyStep));
    return m;
  }
}
