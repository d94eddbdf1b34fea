package io.fusillade.gen;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What one column, query parameter or field generates: a type, a distribution over a range, and the
 * options of the type. Immutable; build it with {@link #builder(String, ValueType)}.
 *
 * <p>Range bounds are typed by the value type: {@link Long} for integer, long and string (string
 * bounds number {@link Vocabulary} entries), {@link Double} for double, {@link BigDecimal} for
 * decimal, {@link Instant} for datetime and {@link LocalDate} for date. A null bound means the
 * type's default range.
 *
 * @param name the column or parameter name
 * @param type the value type
 * @param distribution how values spread over the range
 * @param lower the lower bound, inclusive, or null for the default
 * @param upper the upper bound, inclusive, or null for the default
 * @param alphabet the characters of strings
 * @param minLength the shortest string
 * @param maxLength the longest string
 * @param nullPercentage the share of nulls, in percent
 * @param unique whether every value is given out at most once
 * @param constant the value of a constant
 * @param choices the items of a choice
 * @param weights the weights of the items of a choice, or empty for "use the distribution"
 * @param precision the total number of digits of a decimal (1 to 18)
 * @param scale the number of fraction digits of a decimal
 * @param probability the probability that a boolean is true
 * @param repeat how many consecutive values are the same one, at least 1: a ticket's lines share
 *     its customer ({@code repeat: 10}); with the sequential distribution, each value of the range
 *     for {@code repeat} rows in a row (the columns of a composite key); unique, each value once
 *     for {@code repeat} rows
 * @param array when not null, each value is an array of this many values of the spec, as
 *     PostgreSQL's array literal text ({@code {3,1,4}}), for a query parameter cast to an array
 *     type ({@code $4::int[]})
 */
public record ValueSpec(
    String name,
    ValueType type,
    Distribution distribution,
    Object lower,
    Object upper,
    Alphabet alphabet,
    int minLength,
    int maxLength,
    double nullPercentage,
    boolean unique,
    Object constant,
    List<Object> choices,
    List<Double> weights,
    int precision,
    int scale,
    double probability,
    int repeat,
    ArraySize array) {

  /**
   * How many values an array value holds: a number drawn uniformly in [min, max] for each array.
   *
   * @param min the fewest, at least 0
   * @param max the most, at least min and at most {@value #MAX}
   */
  public record ArraySize(int min, int max) {
    /** The most values an array may hold. */
    public static final int MAX = 10_000;

    /** Checks the bounds. */
    public ArraySize {
      if (min < 0 || max < min || max > MAX) {
        throw new IllegalArgumentException(
            "array size [" + min + ", " + max + "] must be within [0, " + MAX + "], min <= max");
      }
    }
  }

  /** Default string lengths. */
  public static final int DEFAULT_MIN_LENGTH = 4;

  /** Default string lengths. */
  public static final int DEFAULT_MAX_LENGTH = 16;

  /** The default decimal precision. */
  public static final int DEFAULT_PRECISION = 18;

  /** The default decimal scale. */
  public static final int DEFAULT_SCALE = 2;

  /** The default datetime range. */
  public static final Instant DEFAULT_FROM = Instant.parse("2000-01-01T00:00:00Z");

  /** The default datetime range. */
  public static final Instant DEFAULT_TO = Instant.parse("2029-12-31T23:59:59Z");

  /** Checks the spec's consistency; the workload loader reports the same rules with locations. */
  public ValueSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    distribution = distribution == null ? Distribution.uniform() : distribution;
    alphabet = alphabet == null ? Alphabet.english() : alphabet;
    choices = choices == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(choices));
    weights = weights == null ? List.of() : List.copyOf(weights);
    if (!(nullPercentage >= 0 && nullPercentage <= 100)) {
      throw new IllegalArgumentException(name + ": null percentage must be in [0, 100]");
    }
    if (minLength < 1 || maxLength < minLength) {
      throw new IllegalArgumentException(name + ": string length range is invalid");
    }
    if (precision < 1 || precision > 18 || scale < 0 || scale > precision) {
      throw new IllegalArgumentException(name + ": decimal precision/scale is invalid");
    }
    if (!(probability >= 0 && probability <= 1)) {
      throw new IllegalArgumentException(name + ": probability must be in [0, 1]");
    }
    if (repeat < 1) {
      throw new IllegalArgumentException(name + ": repeat must be >= 1");
    }
    if (type == ValueType.CHOICE && choices.isEmpty()) {
      throw new IllegalArgumentException(name + ": a choice needs at least one value");
    }
    if (!weights.isEmpty() && weights.size() != choices.size()) {
      throw new IllegalArgumentException(name + ": one weight per choice is needed");
    }
    if (type == ValueType.DOUBLE && !distribution.isContinuous()) {
      throw new IllegalArgumentException(
          name + ": " + distribution.kind().label() + " needs a discrete type, not double");
    }
    if (unique && (type == ValueType.DOUBLE || type == ValueType.BOOLEAN)) {
      throw new IllegalArgumentException(name + ": unique is not supported for " + type.label());
    }
    if ((lower == null) != (upper == null)) {
      throw new IllegalArgumentException(name + ": give both bounds or none");
    }
    if (lower != null) {
      checkBoundType(name, type, lower);
      checkBoundType(name, type, upper);
    }
  }

  /**
   * @param name the column or parameter name
   * @param type the value type
   * @return a builder with the defaults: uniform, default range, not null, not unique
   */
  public static Builder builder(String name, ValueType type) {
    return new Builder(name, type);
  }

  /**
   * @return a builder initialised from this spec
   */
  public Builder toBuilder() {
    Builder b = new Builder(name, type);
    b.distribution = distribution;
    b.lower = lower;
    b.upper = upper;
    b.alphabet = alphabet;
    b.minLength = minLength;
    b.maxLength = maxLength;
    b.nullPercentage = nullPercentage;
    b.unique = unique;
    b.constant = constant;
    b.choices = choices;
    b.weights = weights;
    b.precision = precision;
    b.scale = scale;
    b.probability = probability;
    b.repeat = repeat;
    b.array = array;
    return b;
  }

  /**
   * The range in the generator's integral units: the integer itself, unscaled decimal, epoch
   * second, epoch day, vocabulary entry, or choice index. Only for types with a discrete range and
   * choices.
   *
   * @return {lower, upper}, both inclusive
   */
  public long[] integralRange() {
    return switch (type) {
      case INTEGER -> lower == null ? new long[] {0, Integer.MAX_VALUE} : longs();
      case LONG -> lower == null ? new long[] {0, Long.MAX_VALUE} : longs();
      case STRING ->
          lower == null
              ? new long[] {0, Vocabulary.capacityOf(alphabet.size(), minLength, maxLength) - 1}
              : longs();
      case DECIMAL -> {
        if (lower == null) {
          yield new long[] {0, BigInteger.TEN.pow(precision).longValueExact() - 1};
        }
        yield new long[] {unscaled((BigDecimal) lower), unscaled((BigDecimal) upper)};
      }
      case DATETIME ->
          new long[] {
            (lower == null ? DEFAULT_FROM : (Instant) lower).getEpochSecond(),
            (upper == null ? DEFAULT_TO : (Instant) upper).getEpochSecond()
          };
      case DATE ->
          new long[] {
            (lower == null
                    ? LocalDate.ofInstant(DEFAULT_FROM, java.time.ZoneOffset.UTC)
                    : (LocalDate) lower)
                .toEpochDay(),
            (upper == null
                    ? LocalDate.ofInstant(DEFAULT_TO, java.time.ZoneOffset.UTC)
                    : (LocalDate) upper)
                .toEpochDay()
          };
      case CHOICE -> new long[] {0, choices.size() - 1};
      default -> throw new IllegalStateException(type.label() + " has no integral range");
    };
  }

  /**
   * How many values this spec can give out when unique: each distinct value {@code repeat} times.
   *
   * @return the count, or {@link Long#MAX_VALUE} if it is that large or larger
   */
  public long uniqueCapacity() {
    long distinct = distinctValues();
    return distinct > Long.MAX_VALUE / repeat ? Long.MAX_VALUE : distinct * repeat;
  }

  /**
   * How many distinct values this spec can produce, for the "unique range smaller than the row
   * count" rule.
   *
   * @return the count, or {@link Long#MAX_VALUE} if it is that large or larger
   */
  public long distinctValues() {
    return switch (type) {
      case UUID -> Long.MAX_VALUE;
      case CONSTANT -> 1;
      case BOOLEAN -> 2;
      case DOUBLE -> Long.MAX_VALUE;
      default -> {
        long[] r = integralRange();
        BigInteger n =
            BigInteger.valueOf(r[1]).subtract(BigInteger.valueOf(r[0])).add(BigInteger.ONE);
        yield n.signum() <= 0 ? 0 : n.bitLength() < 64 ? n.longValueExact() : Long.MAX_VALUE;
      }
    };
  }

  /**
   * @return the decimal bound in units of 10<sup>-scale</sup>
   */
  private long unscaled(BigDecimal value) {
    try {
      return value.setScale(scale, RoundingMode.UNNECESSARY).unscaledValue().longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          name + ": bound " + value + " does not fit decimal(" + precision + ", " + scale + ")", e);
    }
  }

  private long[] longs() {
    return new long[] {((Number) lower).longValue(), ((Number) upper).longValue()};
  }

  private static void checkBoundType(String name, ValueType type, Object bound) {
    boolean ok =
        switch (type) {
          case INTEGER, LONG, STRING -> bound instanceof Long || bound instanceof Integer;
          case DOUBLE -> bound instanceof Number;
          case DECIMAL -> bound instanceof BigDecimal;
          case DATETIME -> bound instanceof Instant;
          case DATE -> bound instanceof LocalDate;
          default -> true;
        };
    if (!ok) {
      throw new IllegalArgumentException(
          name + ": bound " + bound + " has the wrong type for " + type.label());
    }
  }

  /** Builds a {@link ValueSpec}; each setter returns the builder. */
  public static final class Builder {
    private final String name;
    private final ValueType type;
    private Distribution distribution = Distribution.uniform();
    private Object lower;
    private Object upper;
    private Alphabet alphabet = Alphabet.english();
    private int minLength = DEFAULT_MIN_LENGTH;
    private int maxLength = DEFAULT_MAX_LENGTH;
    private double nullPercentage;
    private boolean unique;
    private Object constant;
    private List<Object> choices = List.of();
    private List<Double> weights = List.of();
    private int precision = DEFAULT_PRECISION;
    private int scale = DEFAULT_SCALE;
    private double probability = 0.5;
    private int repeat = 1;
    private ArraySize array;

    private Builder(String name, ValueType type) {
      this.name = name;
      this.type = type;
    }

    /**
     * @param value the distribution
     * @return this builder
     */
    public Builder distribution(Distribution value) {
      this.distribution = value;
      return this;
    }

    /**
     * @param lo the lower bound, inclusive (typed as described in {@link ValueSpec})
     * @param hi the upper bound, inclusive
     * @return this builder
     */
    public Builder range(Object lo, Object hi) {
      this.lower = lo;
      this.upper = hi;
      return this;
    }

    /**
     * @param value the alphabet of strings
     * @return this builder
     */
    public Builder alphabet(Alphabet value) {
      this.alphabet = value;
      return this;
    }

    /**
     * @param min the shortest string
     * @param max the longest string
     * @return this builder
     */
    public Builder length(int min, int max) {
      this.minLength = min;
      this.maxLength = max;
      return this;
    }

    /**
     * @param percent the share of nulls, 0 to 100
     * @return this builder
     */
    public Builder nullPercentage(double percent) {
      this.nullPercentage = percent;
      return this;
    }

    /**
     * @param value whether values never repeat
     * @return this builder
     */
    public Builder unique(boolean value) {
      this.unique = value;
      return this;
    }

    /**
     * @param value the constant's value
     * @return this builder
     */
    public Builder constant(Object value) {
      this.constant = value;
      return this;
    }

    /**
     * @param items the items of a choice
     * @param itemWeights their weights, or an empty list to let the distribution pick
     * @return this builder
     */
    public Builder choices(List<?> items, List<Double> itemWeights) {
      this.choices = new ArrayList<>(items);
      this.weights = itemWeights;
      return this;
    }

    /**
     * @param digits the decimal precision
     * @param fractionDigits the decimal scale
     * @return this builder
     */
    public Builder decimal(int digits, int fractionDigits) {
      this.precision = digits;
      this.scale = fractionDigits;
      return this;
    }

    /**
     * @param value the probability of true
     * @return this builder
     */
    public Builder probability(double value) {
      this.probability = value;
      return this;
    }

    /**
     * @param rows how many consecutive values are the same one (1: each drawn anew)
     * @return this builder
     */
    public Builder repeat(int rows) {
      this.repeat = rows;
      return this;
    }

    /**
     * @param size the number of values of each array, or null for a single value
     * @return this builder
     */
    public Builder array(ArraySize size) {
      this.array = size;
      return this;
    }

    /**
     * @return the spec
     * @throws IllegalArgumentException if the options are inconsistent
     */
    public ValueSpec build() {
      return new ValueSpec(
          name,
          type,
          distribution,
          lower,
          upper,
          alphabet,
          minLength,
          maxLength,
          nullPercentage,
          unique,
          constant,
          choices,
          weights,
          precision,
          scale,
          probability,
          repeat,
          array);
    }
  }
}
