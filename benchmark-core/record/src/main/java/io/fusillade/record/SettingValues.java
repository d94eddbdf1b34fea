package io.fusillade.record;

import io.fusillade.FusilladeException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.function.Function;

/**
 * Typed reads of named text settings (system properties, as a rule), with one error message per
 * kind of bad value, naming the property: {@code system property fusillade.rate=abc is not a
 * number}. {@link RunSettings} and the simulations' own knobs ({@code
 * io.fusillade.gatling.SimulationProperties}) both read through it, so a wrong value reads the same
 * wherever it is given.
 */
public final class SettingValues {
  private final Function<String, String> lookup;

  private SettingValues(Function<String, String> lookup) {
    this.lookup = lookup;
  }

  /** Reads the JVM's system properties, at the time of each read. */
  public static SettingValues systemProperties() {
    return new SettingValues(System::getProperty);
  }

  /**
   * Reads any source of named text values, such as a map in a test.
   *
   * @param lookup the value of a name, or null when it is not set
   */
  public static SettingValues of(Function<String, String> lookup) {
    return new SettingValues(lookup);
  }

  /** The stripped value, or {@code defaultValue} when it is missing or blank. */
  public String string(String name, String defaultValue) {
    String value = lookup.apply(name);
    return value == null || value.isBlank() ? defaultValue : value.strip();
  }

  /** A whole number, or {@code defaultValue} when it is missing or blank. */
  public Integer integer(String name, Integer defaultValue) {
    String value = lookup.apply(name);
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

  /** A whole number, or {@code defaultValue} when it is missing or blank. */
  public Long longValue(String name, Long defaultValue) {
    String value = lookup.apply(name);
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

  /** A finite number such as {@code 500} or {@code 2.5}, or {@code defaultValue}. */
  public Double number(String name, Double defaultValue) {
    String value = lookup.apply(name);
    if (value == null || value.isBlank()) {
      return defaultValue;
    }
    try {
      double parsed = Double.parseDouble(value.strip());
      if (Double.isFinite(parsed)) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // the error below
    }
    throw new FusilladeException("system property " + name + "=" + value + " is not a number");
  }

  /**
   * A duration: {@code 30} or {@code 30s} (seconds), {@code 500ms}, {@code 2m}, {@code 1h}, or
   * ISO-8601 ({@code PT30S}); {@code defaultValue} when missing or blank.
   */
  public Duration duration(String name, Duration defaultValue) {
    String value = lookup.apply(name);
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

  /**
   * Parses {@code 30}, {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h} or {@code PT30S}.
   *
   * @throws IllegalArgumentException when the text is none of these
   */
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

  /**
   * A duration as it is written back: whole seconds as {@code 30s}, else milliseconds ({@code
   * 500ms}); {@link #parseDuration} reads both.
   */
  public static String formatDuration(Duration duration) {
    long millis = duration.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }

  private static final java.util.regex.Pattern SIZE =
      java.util.regex.Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([A-Za-z]+)");

  /**
   * A size as a user writes it, {@code 16MB}, {@code 64MiB}, {@code 1.5GB} (the units of {@link
   * #bytesPerUnit}), in bytes.
   *
   * @param text the size
   * @return its bytes
   * @throws IllegalArgumentException for text that is not a size, saying what one looks like
   */
  public static long parseSize(String text) {
    java.util.regex.Matcher m = SIZE.matcher(text == null ? "" : text.strip());
    double unit = m.matches() ? bytesPerUnit(m.group(2)) : Double.NaN;
    if (Double.isNaN(unit)) {
      throw new IllegalArgumentException("not a size (16MB, 64MiB, 1GB): " + text);
    }
    return (long) (Double.parseDouble(m.group(1)) * unit);
  }

  /**
   * Bytes in one of a size unit, as checks and objectives write sizes: decimal {@code B}, {@code
   * kB}, {@code MB}, {@code GB}, {@code TB}, binary {@code KiB}, {@code MiB}, {@code GiB}, in any
   * case.
   *
   * @param unit the unit
   * @return its bytes, or NaN for a word that is not a size unit
   */
  public static double bytesPerUnit(String unit) {
    return switch (unit.toLowerCase(java.util.Locale.ROOT)) {
      case "b" -> 1;
      case "kb" -> 1e3;
      case "mb" -> 1e6;
      case "gb" -> 1e9;
      case "tb" -> 1e12;
      case "kib" -> 1024;
      case "mib" -> 1024.0 * 1024;
      case "gib" -> 1024.0 * 1024 * 1024;
      default -> Double.NaN;
    };
  }
}
