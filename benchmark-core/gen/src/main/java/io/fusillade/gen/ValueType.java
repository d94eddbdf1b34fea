package io.fusillade.gen;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The types of generated values, with the Java class each produces. Names are case-insensitive in
 * workload files, and a few SQL spellings are accepted as aliases.
 */
public enum ValueType {
  /** 32-bit integer ({@link Integer}). */
  INTEGER(true, "int"),
  /** 64-bit integer ({@link Long}). */
  LONG(true, "bigint"),
  /**
   * Fixed-point number with a precision (at most 18 digits) and a scale ({@link
   * java.math.BigDecimal}).
   */
  DECIMAL(true, "numeric"),
  /** Floating-point number ({@link Double}). */
  DOUBLE(false, "float"),
  /** Text from an alphabet, picked from a bounded vocabulary ({@link String}). */
  STRING(true, "text", "varchar"),
  /** Instant with second precision ({@link java.time.Instant}). */
  DATETIME(true, "timestamp"),
  /** Calendar day ({@link java.time.LocalDate}). */
  DATE(true),
  /** True with a given probability ({@link Boolean}). */
  BOOLEAN(false, "bool"),
  /** Random (version 4) UUID, never repeated within a stream ({@link java.util.UUID}). */
  UUID(false),
  /** The same value every time. */
  CONSTANT(false),
  /** One item of a list, optionally weighted. */
  CHOICE(false);

  private final boolean ranged;
  private final List<String> aliases;

  ValueType(boolean ranged, String... aliases) {
    this.ranged = ranged;
    this.aliases = List.of(aliases);
  }

  /**
   * @return whether values come from a discrete range that a distribution spreads over
   */
  public boolean isDiscreteRange() {
    return ranged;
  }

  /**
   * @return the name used in workload files
   */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @param name a type name or alias in any case ({@code Integer}, {@code datetime})
   * @return the type, if there is one of that name
   */
  public static Optional<ValueType> parse(String name) {
    String wanted = name.trim();
    for (ValueType type : values()) {
      if (type.name().equalsIgnoreCase(wanted)) {
        return Optional.of(type);
      }
      for (String alias : type.aliases) {
        if (alias.equalsIgnoreCase(wanted)) {
          return Optional.of(type);
        }
      }
    }
    return Optional.empty();
  }
}
