package io.fusillade.gen;

import io.fusillade.FusilladeException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Generates the values of one column (or query parameter) for one virtual user.
 *
 * <p>Create it with {@link #create(ValueSpec, long, String, int, int)}. Its stream is derived from
 * (run seed, scope, name, user), so it is independent of every other column and user, and
 * repeatable. The sequence numbers of user u of U are u, u + U, u + 2U, ...: sequential and unique
 * columns thus share one order among all users, and no two users ever give out the same unique
 * value.
 *
 * <p>Not thread-safe: one generator per thread. {@link #next()} allocates nothing but the value's
 * box (and the string or decimal itself).
 */
public abstract class ValueGenerator {

  private final String name;
  private final Rng nullRng;
  private final double nullFraction;
  private final long stride;
  private final long limit;
  private long sequence;
  // repeat > 1: one value per block of `repeat` consecutive sequence numbers (see nextOfBlock)
  private final long repeat;
  private final long blockSeed;
  private final long blockNullSeed;
  private long block = -1;
  private Object blockValue;

  /** The value stream, for subclasses. */
  final Rng rng;

  ValueGenerator(ValueSpec spec, Streams streams, long limit) {
    this.name = streams.qualifiedName();
    this.rng = new Rng(streams.valueSeed());
    this.nullRng = new Rng(streams.nullSeed());
    this.nullFraction = spec.nullPercentage() / 100.0;
    this.sequence = streams.user();
    this.stride = streams.users();
    this.limit = limit;
    this.repeat = spec.repeat();
    this.blockSeed = Seeds.derive(streams.columnSeed(), "repeat");
    this.blockNullSeed = Seeds.derive(streams.columnSeed(), "repeat nulls");
  }

  /**
   * Builds the generator of a spec for one user.
   *
   * @param spec what to generate
   * @param runSeed the run's seed
   * @param scope the table, query or topic the value belongs to
   * @param user this user's index, in [0, users)
   * @param users the number of users sharing the column
   * @return the generator
   */
  public static ValueGenerator create(
      ValueSpec spec, long runSeed, String scope, int user, int users) {
    if (users < 1 || user < 0 || user >= users) {
      throw new IllegalArgumentException("user " + user + " is not in [0, " + users + ")");
    }
    Streams streams = new Streams(runSeed, scope, spec.name(), user, users);
    if (spec.array() != null) {
      return new ArrayOf(spec, streams, runSeed);
    }
    return single(spec, streams, runSeed);
  }

  private static ValueGenerator single(ValueSpec spec, Streams streams, long runSeed) {
    return switch (spec.type()) {
      case INTEGER, LONG, DECIMAL, DATETIME, DATE, STRING -> new Integral(spec, streams, runSeed);
      case DOUBLE -> new Real(spec, streams);
      case BOOLEAN -> new Bool(spec, streams);
      case UUID -> new Uuid(spec, streams);
      case CONSTANT -> new Constant(spec, streams);
      case CHOICE -> new Choice(spec, streams);
    };
  }

  /**
   * @return "scope.name", for messages
   */
  public String name() {
    return name;
  }

  /**
   * @return the next value, or null for a null
   * @throws FusilladeException when a unique column has given out all the values of its range
   */
  public final Object next() {
    if (repeat > 1) {
      return nextOfBlock();
    }
    if (nullFraction > 0 && nullRng.nextDouble() < nullFraction) {
      return null;
    }
    long seq = sequence;
    if (limit != 0 && Long.compareUnsigned(seq, limit) >= 0) {
      throw new FusilladeException(
          "unique " + name + " has given out all " + Long.toUnsignedString(limit) + " values");
    }
    sequence = seq + stride;
    return value(seq);
  }

  /**
   * A value repeated over {@code repeat} consecutive sequence numbers: the block's value (or null)
   * is drawn from streams seeded by the block's number, so that every user whose rows fall in one
   * block gets the same value, and the block's number is the sequence number of sequential and
   * unique values (each once per block). Every call takes a sequence number, null or not.
   */
  private Object nextOfBlock() {
    long seq = sequence;
    sequence = seq + stride;
    long current = Long.divideUnsigned(seq, repeat);
    if (current != block) {
      if (limit != 0 && Long.compareUnsigned(current, limit) >= 0) {
        throw new FusilladeException(
            "unique "
                + name
                + " has given out all "
                + Long.toUnsignedString(limit)
                + " values, "
                + repeat
                + " times each");
      }
      block = current;
      nullRng.reseed(Seeds.derive(blockNullSeed, current));
      boolean isNull = nullFraction > 0 && nullRng.nextDouble() < nullFraction;
      rng.reseed(Seeds.derive(blockSeed, current));
      blockValue = isNull ? null : value(current);
    }
    return blockValue;
  }

  /**
   * @param seq the sequence number of this value
   * @return the value
   */
  abstract Object value(long seq);

  /** The seeds of one generator. */
  record Streams(long runSeed, String scope, String column, int user, int users) {

    long columnSeed() {
      return Seeds.stream(runSeed, scope, column);
    }

    long valueSeed() {
      return Seeds.derive(columnSeed(), user);
    }

    long nullSeed() {
      return Seeds.derive(Seeds.derive(columnSeed(), "nulls"), user);
    }

    /** Shared by all users, so that their sequence numbers index one permutation. */
    long uniqueKey() {
      return Seeds.derive(columnSeed(), "unique");
    }

    String qualifiedName() {
      return scope + "." + column;
    }
  }

  /** Integers, decimals, datetimes, dates and strings: an offset into a discrete range. */
  static final class Integral extends ValueGenerator {
    private final ValueType type;
    private final long lower;
    private final OffsetSampler sampler;
    private final int scale;
    private final Vocabulary vocabulary;

    Integral(ValueSpec spec, Streams streams, long runSeed) {
      super(spec, streams, spec.unique() ? count(spec) : 0);
      long[] range = spec.integralRange();
      long n = range[1] - range[0] + 1;
      this.type = spec.type();
      this.lower = range[0];
      this.scale = spec.scale();
      this.sampler =
          spec.unique()
              ? spec.distribution().uniqueOffsets(n, streams.uniqueKey())
              : spec.distribution().offsets(n);
      this.vocabulary =
          type == ValueType.STRING
              ? new Vocabulary(
                  spec.alphabet(), spec.minLength(), spec.maxLength(), vocabularyKey(spec, runSeed))
              : null;
    }

    private static long count(ValueSpec spec) {
      long[] range = spec.integralRange();
      return range[1] - range[0] + 1;
    }

    @Override
    Object value(long seq) {
      long v = lower + sampler.offset(rng, seq);
      return switch (type) {
        case INTEGER -> (int) v;
        case LONG -> v;
        case DECIMAL -> BigDecimal.valueOf(v, scale);
        case DATETIME -> Instant.ofEpochSecond(v);
        case DATE -> LocalDate.ofEpochDay(v);
        case STRING -> vocabulary.entry(v);
        default -> throw new IllegalStateException(type.toString());
      };
    }
  }

  /**
   * The key of the vocabulary shared by all strings of a run with the same alphabet and lengths.
   */
  static long vocabularyKey(ValueSpec spec, long runSeed) {
    return Seeds.derive(
        runSeed,
        "vocabulary:"
            + spec.alphabet().characters()
            + ":"
            + spec.minLength()
            + ":"
            + spec.maxLength());
  }

  /** Doubles: a position in a continuous range. */
  static final class Real extends ValueGenerator {
    private final double lower;
    private final double width;
    private final UnitSampler sampler;

    Real(ValueSpec spec, Streams streams) {
      super(spec, streams, 0);
      this.lower = spec.lower() == null ? 0 : ((Number) spec.lower()).doubleValue();
      double upper = spec.upper() == null ? 1 : ((Number) spec.upper()).doubleValue();
      this.width = upper - lower;
      this.sampler = spec.distribution().unit();
    }

    @Override
    Object value(long seq) {
      return lower + sampler.unit(rng) * width;
    }
  }

  /** Booleans: true with a probability; the distribution does not apply. */
  static final class Bool extends ValueGenerator {
    private final double probability;

    Bool(ValueSpec spec, Streams streams) {
      super(spec, streams, 0);
      this.probability = spec.probability();
    }

    @Override
    Object value(long seq) {
      return rng.nextDouble() < probability;
    }
  }

  /**
   * Version 4 UUIDs: 58 random bits, and 62 bits that are a permutation of the sequence number, so
   * that they never repeat in a stream, unique or not.
   */
  static final class Uuid extends ValueGenerator {
    private static final long DOMAIN = 1L << 62;
    private final Permutation permutation;

    Uuid(ValueSpec spec, Streams streams) {
      super(spec, streams, DOMAIN);
      this.permutation = new Permutation(DOMAIN, streams.uniqueKey());
    }

    @Override
    Object value(long seq) {
      long high = (rng.nextLong() & 0xFFFFFFFFFFFF0FFFL) | 0x0000000000004000L;
      long low = permutation.apply(seq) | 0x8000000000000000L;
      return new java.util.UUID(high, low);
    }
  }

  /** The same value every time. */
  static final class Constant extends ValueGenerator {
    private final Object constant;

    Constant(ValueSpec spec, Streams streams) {
      super(spec, streams, spec.unique() ? 1 : 0);
      this.constant = spec.constant();
    }

    @Override
    Object value(long seq) {
      return constant;
    }
  }

  /**
   * Arrays, as PostgreSQL's array literal text ({@code {3,1,4}}, {@code {"a b","c"}}): a length
   * drawn uniformly in the spec's array size, then that many values of an element stream of the
   * same spec, which continues from one array to the next (unique elements stay unique across
   * arrays). Bound as text and cast by the statement ({@code $4::int[]}).
   */
  static final class ArrayOf extends ValueGenerator {
    private final ValueGenerator elements;
    private final int min;
    private final long spread;
    private final boolean quoted;
    private final StringBuilder text = new StringBuilder();

    ArrayOf(ValueSpec spec, Streams streams, long runSeed) {
      super(spec, streams, 0);
      ValueSpec element = spec.toBuilder().array(null).repeat(1).nullPercentage(0).build();
      // Its own stream (the name with []), not the lengths' one
      this.elements =
          single(
              element,
              new Streams(
                  streams.runSeed(),
                  streams.scope(),
                  streams.column() + "[]",
                  streams.user(),
                  streams.users()),
              runSeed);
      this.min = spec.array().min();
      this.spread = spec.array().max() - (long) spec.array().min() + 1;
      this.quoted =
          switch (spec.type()) {
            case INTEGER, LONG, DECIMAL, DOUBLE, BOOLEAN -> false;
            default -> true;
          };
    }

    @Override
    Object value(long seq) {
      int length = min + (int) rng.nextUnsigned(spread);
      text.setLength(0);
      text.append('{');
      for (int i = 0; i < length; i++) {
        if (i > 0) {
          text.append(',');
        }
        Object v = elements.next();
        if (quoted) {
          text.append('"');
          String s = String.valueOf(v);
          for (int c = 0; c < s.length(); c++) {
            char ch = s.charAt(c);
            if (ch == '"' || ch == '\\') {
              text.append('\\');
            }
            text.append(ch);
          }
          text.append('"');
        } else {
          text.append(v);
        }
      }
      return text.append('}').toString();
    }
  }

  /** An item of a list: weighted (alias method), or picked by the distribution. */
  static final class Choice extends ValueGenerator {
    private final Object[] items;
    private final AliasTable weighted;
    private final OffsetSampler sampler;

    Choice(ValueSpec spec, Streams streams) {
      super(spec, streams, spec.unique() ? spec.choices().size() : 0);
      this.items = spec.choices().toArray();
      boolean useWeights = !spec.weights().isEmpty() && !spec.unique();
      this.weighted = useWeights ? new AliasTable(spec.weights()) : null;
      this.sampler =
          spec.unique()
              ? spec.distribution().uniqueOffsets(items.length, streams.uniqueKey())
              : spec.distribution().offsets(items.length);
    }

    @Override
    Object value(long seq) {
      int index = weighted != null ? weighted.sample(rng) : (int) sampler.offset(rng, seq);
      return items[index];
    }
  }
}
