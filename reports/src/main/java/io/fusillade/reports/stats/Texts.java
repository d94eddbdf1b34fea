package io.fusillade.reports.stats;

import java.util.Locale;

/** Number formatting shared by the reason and warning texts; locale-independent. */
final class Texts {

  private Texts() {}

  /** A signed percent with one decimal: {@code +10.2%}, {@code -0.4%}, {@code +∞%}. */
  static String signedPercent(double fraction) {
    if (Double.isNaN(fraction)) {
      return "n/a";
    }
    if (Double.isInfinite(fraction)) {
      return fraction > 0 ? "+∞%" : "-∞%";
    }
    return String.format(Locale.ROOT, "%+.1f%%", fraction * 100);
  }

  /**
   * An unsigned percent with one decimal, trailing {@code .0} dropped: {@code 5%}, {@code 2.5%}.
   */
  static String percent(double fraction) {
    if (Double.isInfinite(fraction)) {
      return "∞%";
    }
    String s = String.format(Locale.ROOT, "%.1f", fraction * 100);
    return (s.endsWith(".0") ? s.substring(0, s.length() - 2) : s) + "%";
  }

  /** {@code p=0.412}, {@code p=0.0413}, {@code p=0.0003}, {@code p<0.0001}, {@code p=n/a}. */
  static String pValue(double p) {
    if (Double.isNaN(p)) {
      return "p=n/a";
    }
    if (p < 0.0001) {
      return "p<0.0001";
    }
    return String.format(Locale.ROOT, p < 0.1 ? "p=%.4f" : "p=%.3f", p);
  }

  /** A level or a plain number: integers without decimals ({@code 16}), others as given. */
  static String number(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return Double.toString(value);
  }

  /**
   * A mean or other measured value with up to four significant digits, in plain notation ({@code
   * 1110}, {@code 0.00012}: never {@code 1.110e+03}).
   */
  static String value(double value) {
    if (!Double.isFinite(value)) {
      return Double.isNaN(value) ? "n/a" : value > 0 ? "∞" : "-∞";
    }
    return new java.math.BigDecimal(value)
        .round(new java.math.MathContext(4))
        .stripTrailingZeros()
        .toPlainString();
  }
}
