package io.fusillade.gatling.check;

import io.fusillade.gatling.Expression;
import io.gatling.core.session.Session;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

/**
 * One validation of a {@link Check}: a description ({@code is(7)}) and a test that gives a failure
 * message, or null. Values compare as numbers when both read as numbers (floating-point ones within
 * a relative 1e-9), maps key by key, anything else as text.
 */
record Validation<X>(String description, Test<X> test) {

  @FunctionalInterface
  interface Test<X> {
    String verify(Optional<X> value, Session session);
  }

  String verify(Optional<X> value, Session session) {
    return test.verify(value, session);
  }

  static <X> Validation<X> exists() {
    return new Validation<>(
        "exists", (value, session) -> value.isPresent() ? null : "found nothing");
  }

  static <X> Validation<X> notExists() {
    return new Validation<>(
        "notExists", (value, session) -> value.isEmpty() ? null : "found " + value.get());
  }

  static <X> Validation<X> is(Expression<?> expected) {
    return new Validation<>(
        "is(" + expected + ")",
        (value, session) -> {
          Object want = expected.resolve(session);
          if (value.isEmpty()) {
            return "found nothing";
          }
          return same(value.get(), want) ? null : "found " + value.get();
        });
  }

  static <X> Validation<X> not(Object unexpected) {
    return new Validation<>(
        "not(" + unexpected + ")",
        (value, session) ->
            value.isPresent() && same(value.get(), unexpected) ? "found " + value.get() : null);
  }

  static <X> Validation<X> in(List<?> values) {
    return new Validation<>(
        "in" + values,
        (value, session) -> {
          if (value.isEmpty()) {
            return "found nothing";
          }
          for (Object v : values) {
            if (same(value.get(), v)) {
              return null;
            }
          }
          return "found " + value.get();
        });
  }

  static <X> Validation<X> compared(String operator, Object bound, IntPredicate accept) {
    return new Validation<>(
        operator.equals(">")
            ? "gt(" + bound + ")"
            : operator.equals(">=")
                ? "gte(" + bound + ")"
                : operator.equals("<") ? "lt(" + bound + ")" : "lte(" + bound + ")",
        (value, session) -> {
          if (value.isEmpty()) {
            return "found nothing";
          }
          return accept.test(compare(value.get(), bound)) ? null : "found " + value.get();
        });
  }

  static <X> Validation<X> custom(String description, Predicate<? super X> test) {
    return new Validation<>(
        "validate(" + description + ")",
        (value, session) -> {
          if (value.isEmpty()) {
            return "found nothing";
          }
          return test.test(value.get()) ? null : "found " + value.get();
        });
  }

  /** Whether two values are the same: by number when both read as numbers, else as text. */
  static boolean same(Object a, Object b) {
    if (a instanceof java.util.Map<?, ?> x && b instanceof java.util.Map<?, ?> y) {
      return x.size() == y.size()
          && x.entrySet().stream()
              .allMatch(e -> y.containsKey(e.getKey()) && same(e.getValue(), y.get(e.getKey())));
    }
    if ((a instanceof Double || a instanceof Float) && b instanceof Number n) {
      return close(((Number) a).doubleValue(), n.doubleValue());
    }
    if ((b instanceof Double || b instanceof Float) && a instanceof Number n) {
      return close(n.doubleValue(), ((Number) b).doubleValue());
    }
    BigDecimal x = number(a);
    BigDecimal y = number(b);
    if (x != null && y != null && (a instanceof Number || b instanceof Number)) {
      return x.compareTo(y) == 0;
    }
    return String.valueOf(a).equals(String.valueOf(b));
  }

  /** Floating-point values are the same within a relative 1e-9 (an average's last digits). */
  private static boolean close(double a, double b) {
    return a == b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  }

  /** Compares by number when both read as numbers, else as text. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compare(Object a, Object b) {
    BigDecimal x = number(a);
    BigDecimal y = number(b);
    if (x != null && y != null) {
      return x.compareTo(y);
    }
    if (a instanceof Comparable ca && b != null && a.getClass() == b.getClass()) {
      return ca.compareTo(b);
    }
    return String.valueOf(a).compareTo(String.valueOf(b));
  }

  private static BigDecimal number(Object v) {
    if (v instanceof BigDecimal d) {
      return d;
    }
    if (v instanceof Number || v instanceof CharSequence) {
      try {
        return new BigDecimal(v.toString().strip());
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }
}
