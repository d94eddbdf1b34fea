package io.fusillade.gatling;

import io.fusillade.record.SettingValues;
import java.time.Duration;

/**
 * Reads a simulation's own knobs from system properties ({@code -Dengine=native -Dduration=60s}),
 * with a clear error naming the property when a value is wrong. The settings of {@code fusillade
 * run} (rate, duration, seed, workload, targets...) are read by {@link
 * io.fusillade.record.RunSettings}; both read through {@link SettingValues}, so errors read alike.
 */
public final class SimulationProperties {
  private static final SettingValues VALUES = SettingValues.systemProperties();

  private SimulationProperties() {}

  public static String string(String name, String defaultValue) {
    return VALUES.string(name, defaultValue);
  }

  public static int integer(String name, int defaultValue) {
    return VALUES.integer(name, defaultValue);
  }

  public static long longValue(String name, long defaultValue) {
    return VALUES.longValue(name, defaultValue);
  }

  /**
   * A duration: {@code 30} or {@code 30s} (seconds), {@code 500ms}, {@code 2m}, {@code 1h}, or
   * ISO-8601 ({@code PT30S}).
   */
  public static Duration duration(String name, Duration defaultValue) {
    return VALUES.duration(name, defaultValue);
  }

  /** Parses {@code 30}, {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h} or {@code PT30S}. */
  public static Duration parseDuration(String text) {
    return SettingValues.parseDuration(text);
  }
}
