package io.fusillade.gen;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The characters strings are made of: a union of named sets ({@code en}, {@code ru}, {@code
 * digits}) and custom ones written {@code chars:XYZ}.
 *
 * @param characters the distinct characters, in a fixed order
 */
public record Alphabet(String characters) {

  /** Latin letters, lower then upper case. */
  public static final String EN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

  /** Cyrillic letters of Russian, lower then upper case. */
  public static final String RU =
      "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ";

  /** Decimal digits. */
  public static final String DIGITS = "0123456789";

  /** The prefix of a custom character set. */
  public static final String CUSTOM_PREFIX = "chars:";

  /** The names accepted besides custom sets, for error messages. */
  public static final List<String> NAMES = List.of("en", "ru", "digits");

  /** Checks that there are at least two distinct characters, each a single UTF-16 unit. */
  public Alphabet {
    if (characters.codePoints().distinct().count() != characters.length()) {
      throw new IllegalArgumentException("alphabet characters must be distinct BMP characters");
    }
    if (characters.length() < 2) {
      throw new IllegalArgumentException("an alphabet needs at least two characters");
    }
  }

  /**
   * @return the English alphabet
   */
  public static Alphabet english() {
    return new Alphabet(EN);
  }

  /**
   * Resolves one name of a workload's {@code alphabet} list.
   *
   * @param name {@code en}, {@code ru}, {@code digits} (any case) or {@code chars:...}
   * @return its characters, or empty if the name is unknown
   */
  public static Optional<String> charactersOf(String name) {
    if (name.startsWith(CUSTOM_PREFIX)) {
      return Optional.of(name.substring(CUSTOM_PREFIX.length()));
    }
    return switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "en" -> Optional.of(EN);
      case "ru" -> Optional.of(RU);
      case "digits" -> Optional.of(DIGITS);
      default -> Optional.empty();
    };
  }

  /**
   * @param names names as accepted by {@link #charactersOf(String)}
   * @return the union of their characters, duplicates removed
   * @throws IllegalArgumentException if a name is unknown or the union is too small
   */
  public static Alphabet of(List<String> names) {
    Set<Character> seen = new LinkedHashSet<>();
    for (String name : names) {
      String chars =
          charactersOf(name)
              .orElseThrow(() -> new IllegalArgumentException("unknown alphabet " + name));
      for (char c : chars.toCharArray()) {
        seen.add(c);
      }
    }
    StringBuilder sb = new StringBuilder(seen.size());
    seen.forEach(sb::append);
    return new Alphabet(sb.toString());
  }

  /**
   * @return the number of characters
   */
  public int size() {
    return characters.length();
  }
}
