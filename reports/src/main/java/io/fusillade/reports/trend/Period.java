package io.fusillade.reports.trend;

import io.fusillade.FusilladeException;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The length of one period of a period-over-period report, as typed: {@code 30m}, {@code 4h},
 * {@code 24h}, {@code 7d}.
 *
 * @param length the length
 * @param text the length as typed, used in file names ({@code trend-24h.md}) and titles
 */
public record Period(Duration length, String text) {
  private static final Pattern FORM = Pattern.compile("([1-9][0-9]{0,5})([mhd])");

  /**
   * Reads a period.
   *
   * @param text such as {@code 24h}
   * @return the period
   * @throws FusilladeException naming the option when the text is not a period
   */
  public static Period parse(String text) {
    Matcher m = FORM.matcher(text == null ? "" : text.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new FusilladeException(
          "--period: '"
              + text
              + "' is not a period: a whole number of minutes, hours or days such as 30m, 4h,"
              + " 24h or 7d");
    }
    long n = Long.parseLong(m.group(1));
    Duration length =
        switch (m.group(2)) {
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          default -> Duration.ofDays(n);
        };
    return new Period(length, n + m.group(2));
  }

  @Override
  public String toString() {
    return text;
  }
}
