package io.fusillade.gatling;

import io.fusillade.FusilladeException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * Reads a simulation's settings from system properties ({@code -Drate=500 -Dduration=60s}), with a
 * clear error naming the property when a value is wrong.
 */
public final class SimulationProperties {
  private SimulationProperties() {}

  public static String string(String name, String defaultValue) {
    String value = System.getProperty(name);
    return value == null || value.isBlank() ? defaultValue : value.strip();
  }

  public static int integer(String name, int defaultValue) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      return defaultValue;
    }
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new FusilladeException(
          "system property " + name + "=" + value + " is not a whole number");
    }
  }

  public static long longValue(String name, long defaultValue) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      return defaultValue;
    }
    try {
      return Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      throw new FusilladeException(
          "system property " + name + "=" + value + " is not a whole number");
    }
  }

  /**
   * A duration: {@code 30} or {@code 30s} (seconds), {@code 500ms}, {@code 2m}, {@code 1h}, or
   * ISO-8601 ({@code PT30S}).
   */
  public static Duration duration(String name, Duration defaultValue) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      return defaultValue;
    }
    try {
      return parseDuration(value);
    } catch (IllegalArgumentException e) {
      throw new FusilladeException(
          "system property "
              + name
              + "="
              + value
              + " is not a duration (examples: 30s, 500ms, 2m, 1h)");
    }
  }

  /** Parses {@code 30}, {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h} or {@code PT30S}. */
  public static Duration parseDuration(String text) {
    String value = text.strip().toLowerCase(Locale.ROOT);
    try {
      if (value.startsWith("pt") || value.startsWith("p")) {
        return Duration.parse(value.toUpperCase(Locale.ROOT));
      }
      if (value.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2).strip()));
      }
      char unit = value.charAt(value.length() - 1);
      if (Character.isDigit(unit)) {
        return Duration.ofSeconds(Long.parseLong(value));
      }
      long amount = Long.parseLong(value.substring(0, value.length() - 1).strip());
      return switch (unit) {
        case 's' -> Duration.ofSeconds(amount);
        case 'm' -> Duration.ofMinutes(amount);
        case 'h' -> Duration.ofHours(amount);
        default -> throw new IllegalArgumentException("unknown unit " + unit);
      };
    } catch (NumberFormatException | DateTimeParseException | StringIndexOutOfBoundsException e) {
      throw new IllegalArgumentException("not a duration: " + text, e);
    }
  }
}
