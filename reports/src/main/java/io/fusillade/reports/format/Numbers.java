package io.fusillade.reports.format;

import java.util.Locale;

/**
 * How the reports print numbers: three significant digits, thousands grouped ({@code 1,110}), never
 * scientific notation ({@code 1.11e+03} is read by few and misread by many).
 */
public final class Numbers {
  private Numbers() {}

  /**
   * A number with about three significant digits.
   *
   * @param value the number
   * @return e.g. {@code "1,234"}, {@code "12.3"}, {@code "0.123"}, {@code "0.00012"}; {@code "-"}
   *     when not a number
   */
  public static String number(double value) {
    if (Double.isNaN(value)) {
      return "-";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "∞" : "-∞";
    }
    if (value == 0) {
      return "0";
    }
    double magnitude = Math.abs(value);
    if (magnitude >= 100) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    if (magnitude >= 10) {
      return String.format(Locale.ROOT, "%.1f", value);
    }
    if (magnitude >= 1) {
      return String.format(Locale.ROOT, "%.2f", value);
    }
    if (magnitude >= 0.001) {
      return String.format(Locale.ROOT, "%.3f", value);
    }
    // below 0.001: two significant digits in plain decimals (0.00012), not 1.2e-04
    return new java.math.BigDecimal(value)
        .round(new java.math.MathContext(2))
        .stripTrailingZeros()
        .toPlainString();
  }

  /**
   * A count with its thousands grouped.
   *
   * @param count the count
   * @return e.g. {@code "12,204"}
   */
  public static String count(long count) {
    return String.format(Locale.ROOT, "%,d", count);
  }

  /**
   * A fraction as a signed percentage.
   *
   * @param fraction 0.1 for +10%
   * @return e.g. {@code "+10.0%"}
   */
  public static String signedPercent(double fraction) {
    if (!Double.isFinite(fraction)) {
      return Double.isNaN(fraction) ? "-" : (fraction > 0 ? "+∞" : "-∞");
    }
    return String.format(Locale.ROOT, "%+.1f%%", fraction * 100);
  }

  /**
   * A fraction as a percentage.
   *
   * @param fraction 0.1 for 10%
   * @return e.g. {@code "10.0%"}
   */
  public static String percent(double fraction) {
    if (!Double.isFinite(fraction)) {
      return "-";
    }
    return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
  }

  /**
   * A p-value.
   *
   * @param p the p-value
   * @return {@code "p<0.0001"}, {@code "p=0.012"}, or {@code "p=-"} when undefined
   */
  public static String pValue(double p) {
    if (Double.isNaN(p)) {
      return "p=-";
    }
    if (p < 0.0001) {
      return "p<0.0001";
    }
    return String.format(Locale.ROOT, "p=%.4f", p);
  }

  /**
   * Left-aligned first column, right-aligned others, two spaces apart.
   *
   * @param rows the rows, the header first
   * @return the table, one line per row
   */
  public static String table(java.util.List<String[]> rows) {
    int columns = rows.stream().mapToInt(r -> r.length).max().orElse(0);
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        String cell = row[i];
        String pad = " ".repeat(widths[i] - cell.length());
        if (i == 0) {
          out.append(cell).append(i == row.length - 1 ? "" : pad);
        } else {
          out.append("  ").append(pad).append(cell);
        }
      }
      out.append(System.lineSeparator());
    }
    return out.toString();
  }
}
