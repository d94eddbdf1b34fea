package io.fusillade.workload;

import com.fasterxml.jackson.core.JsonToken;
import io.fusillade.gen.ValueType;
import io.fusillade.workload.YamlNode.ListNode;
import io.fusillade.workload.YamlNode.Scalar;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * Reads the {@code range} of a value spec as typed bounds: integers that fit the type, decimals
 * that fit precision and scale, ISO-8601 dates and datetimes, left not greater than right.
 */
final class RangeBounds extends FieldReader {

  RangeBounds(FieldReader shared) {
    super(shared);
  }

  /** Converts a {@code range} to typed bounds, or reports why it cannot. */
  Object[] bounds(YamlNode node, String path, ValueType type, int precision, int scale) {
    if (!(node instanceof ListNode list) || list.items().size() != 2) {
      problem(node, path, "expected [left, right], got " + describeShape(node));
      return null;
    }
    Object left = bound(list.items().get(0), path + "[0]", type, precision, scale);
    Object right = bound(list.items().get(1), path + "[1]", type, precision, scale);
    if (left == null || right == null) {
      return null;
    }
    @SuppressWarnings("unchecked")
    int order = ((Comparable<Object>) left).compareTo(right);
    if (order > 0) {
      problem(
          node,
          path,
          "left bound "
              + text(list.items().get(0))
              + " is greater than right bound "
              + text(list.items().get(1)));
      return null;
    }
    return new Object[] {left, right};
  }

  private Object bound(YamlNode node, String path, ValueType type, int precision, int scale) {
    if (!(node instanceof Scalar s) || s.isNull()) {
      problem(node, path, "expected a bound, got " + node.describe());
      return null;
    }
    switch (type) {
      case INTEGER, LONG, STRING -> {
        Long multiple = s.token() == JsonToken.VALUE_STRING ? scaled(s.text()) : null;
        if (s.token() != JsonToken.VALUE_NUMBER_INT && multiple == null) {
          problem(
              node, path, "expected an integer bound" + scaleHint(node) + ", got " + s.describe());
          return null;
        }
        BigInteger v =
            multiple != null
                ? BigInteger.valueOf(multiple)
                : new BigInteger(s.text().replace("_", ""));
        BigInteger min =
            BigInteger.valueOf(
                type == ValueType.INTEGER
                    ? Integer.MIN_VALUE
                    : type == ValueType.STRING ? 0 : Long.MIN_VALUE);
        BigInteger max =
            BigInteger.valueOf(type == ValueType.INTEGER ? Integer.MAX_VALUE : Long.MAX_VALUE);
        if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
          String why =
              switch (type) {
                case INTEGER -> " does not fit integer (32 bits); use type long";
                case STRING -> " is not a vocabulary entry number (>= 0)";
                default -> " does not fit long (64 bits)";
              };
          problem(node, path, "bound " + s.text() + why);
          return null;
        }
        return v.longValue();
      }
      case DOUBLE -> {
        Double d = numberOf(node, path);
        return d;
      }
      case DECIMAL -> {
        if (s.token() != JsonToken.VALUE_NUMBER_INT && s.token() != JsonToken.VALUE_NUMBER_FLOAT) {
          problem(node, path, "expected a number, got " + s.describe());
          return null;
        }
        BigDecimal d = new BigDecimal(s.text());
        if (d.stripTrailingZeros().scale() > scale
            || d.setScale(scale, RoundingMode.DOWN).precision() - scale > precision - scale) {
          problem(
              node,
              path,
              "bound " + s.text() + " does not fit decimal(" + precision + ", " + scale + ")");
          return null;
        }
        return d.setScale(scale, RoundingMode.UNNECESSARY);
      }
      case DATETIME -> {
        Instant instant = instant(s.text());
        if (instant == null) {
          problem(
              node,
              path,
              "expected an ISO-8601 datetime such as 2015-10-21T07:28:00Z, got " + s.describe());
        }
        return instant;
      }
      case DATE -> {
        try {
          return LocalDate.parse(s.text());
        } catch (DateTimeParseException e) {
          problem(node, path, "expected an ISO-8601 date such as 2015-10-21, got " + s.describe());
          return null;
        }
      }
      default -> {
        return null;
      }
    }
  }

  private static Instant instant(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException ignored) {
      // try the next form
    }
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException ignored) {
      // try the next form
    }
    try {
      return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException ignored) {
      // try the next form
    }
    try {
      return LocalDate.parse(text).atStartOfDay().toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException ignored) {
      return null;
    }
  }

  /** Picostress centres the normal curve at (left + right) / 2, computed in the column's type. */
  static boolean overflows(ValueType type, Object[] bounds) {
    if (type == ValueType.INTEGER) {
      long sum = ((Number) bounds[0]).longValue() + ((Number) bounds[1]).longValue();
      return sum > Integer.MAX_VALUE || sum < Integer.MIN_VALUE;
    }
    if (type == ValueType.LONG) {
      long a = (Long) bounds[0];
      long b = (Long) bounds[1];
      long sum = a + b;
      return ((a ^ sum) & (b ^ sum)) < 0;
    }
    return false;
  }

  private static String describeShape(YamlNode node) {
    return node instanceof ListNode l ? "a list of " + l.items().size() : node.describe();
  }
}
