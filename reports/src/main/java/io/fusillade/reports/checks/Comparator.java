package io.fusillade.reports.checks;

/** The comparison of a check: {@code <}, {@code <=}, {@code >}, {@code >=}. */
enum Comparator {
  LESS("<"),
  LESS_OR_EQUAL("<="),
  GREATER(">"),
  GREATER_OR_EQUAL(">=");

  final String symbol;

  Comparator(String symbol) {
    this.symbol = symbol;
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
