package io.fusillade.workload;

import java.util.Locale;
import java.util.Optional;

/** The text formats of {@link RowSampler}. */
public enum RowFormat {
  /** RFC 4180 comma-separated values with a header line; nulls are empty fields. */
  CSV,
  /** One JSON object per line. */
  JSONL;

  /**
   * @param name {@code csv} or {@code jsonl}, any case
   * @return the format
   */
  public static Optional<RowFormat> parse(String name) {
    try {
      return Optional.of(valueOf(name.trim().toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
