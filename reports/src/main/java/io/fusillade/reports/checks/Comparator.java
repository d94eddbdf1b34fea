package io.fusillade.reports.checks;

/** The comparison of a check: {@code <}, {@code <=}, {@code >}, {@code >=}. */
enum Comparator {
  LESS("<", "below"),
  LESS_OR_EQUAL("<=", "at most"),
  GREATER(">", "above"),
  GREATER_OR_EQUAL(">=", "at least");

  final String symbol;

  /** The comparison in words: "below", "at most", "above", "at least". */
  final String words;

  Comparator(String symbol, String words) {
    this.symbol = symbol;
    this.words = words;
  }

  /**
   * How a measured value stands against the limit, in words: {@code "below the limit 100 ms"}, or
   * {@code "not below the limit 100 ms"} when it does not hold.
   *
   * @param holds whether the comparison held
   * @param limit the limit with its unit
   */
  String against(boolean holds, String limit) {
    return (holds ? "" : "not ") + words + " the limit " + limit;
  }

  boolean holds(double measured, double limit) {
    return switch (this) {
      case LESS -> measured < limit;
      case LESS_OR_EQUAL -> measured <= limit;
      case GREATER -> measured > limit;
      case GREATER_OR_EQUAL -> measured >= limit;
    };
  }

  static Comparator of(String symbol) {
    for (Comparator c : values()) {
      if (c.symbol.equals(symbol)) {
        return c;
      }
    }
    return null;
  }
}
