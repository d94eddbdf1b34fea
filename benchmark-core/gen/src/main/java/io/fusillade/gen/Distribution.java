package io.fusillade.gen;

import java.util.Locale;
import java.util.Optional;

/**
 * How values spread over a column's range.
 *
 * <ul>
 *   <li>{@code uniform}: every value equally likely.
 *   <li>{@code normal}: a normal curve centred on the middle of the range and truncated to it; the
 *       parameter is the standard deviation as a fraction of the range width (default 1/6, so the
 *       range spans ±3σ).
 *   <li>{@code zipf}: the first value is the most frequent, P(k) ∝ k<sup>-s</sup>; the parameter is
 *       the exponent s (default 1).
 *   <li>{@code exponential}: values crowd near the lower bound, density ∝ e<sup>-λx</sup> with x
 *       the position in the range scaled to [0, 1); the parameter is the rate λ (default 5).
 *   <li>{@code sequential}: the range in order, starting again at the lower bound once exhausted.
 *   <li>{@code hotspot} (YCSB's): a hot set, the first part of the range, takes a fixed share of
 *       the draws, uniform within it; the rest of the range takes the other draws, uniform too. The
 *       parameter is the hot set's share of the range (default 0.2), the second parameter the share
 *       of draws that fall in it (default 0.8): 80% of the draws on 20% of the values.
 *   <li>{@code latest} (YCSB's): Zipf's law counted from the upper bound, P(upper - k + 1) ∝
 *       k<sup>-s</sup>: the last values of the range, the most recently inserted keys, are the most
 *       frequent. The parameter is the exponent s (default 0.99, YCSB's zipfian constant).
 *   <li>{@code nurand} (TPC-C's non-uniform random, clause 2.1.6): offset = ((random(0, A) |
 *       random(0, n - 1)) + C) mod n over the n values of the range. The parameter is A (default
 *       255; TPC-C uses 255 for last names, 1023 for customer ids, 8191 for item ids), the second
 *       parameter the constant C in [0, A] (default ⌊0.618 A⌋, fixed so that every run draws
 *       alike).
 * </ul>
 *
 * @param kind the family
 * @param parameter the family's parameter, as described above
 * @param second the family's second parameter (hotspot's share of draws, nurand's C); NaN for the
 *     families that have none
 */
public record Distribution(Kind kind, double parameter, double second) {

  /** The distribution families. */
  public enum Kind {
    UNIFORM(Double.NaN),
    NORMAL(1.0 / 6),
    ZIPF(1.0),
    EXPONENTIAL(5.0),
    SEQUENTIAL(Double.NaN),
    HOTSPOT(0.2, 0.8),
    LATEST(0.99),
    NURAND(255, Double.NaN);

    private final double defaultParameter;
    private final boolean hasSecond;
    private final double defaultSecond;

    Kind(double defaultParameter) {
      this.defaultParameter = defaultParameter;
      this.hasSecond = false;
      this.defaultSecond = Double.NaN;
    }

    Kind(double defaultParameter, double defaultSecond) {
      this.defaultParameter = defaultParameter;
      this.hasSecond = true;
      this.defaultSecond = defaultSecond;
    }

    /**
     * @return whether the family takes a second parameter (hotspot, nurand)
     */
    public boolean hasSecondParameter() {
      return hasSecond;
    }

    /**
     * @return the parameter used when none is given (NaN if the family has none)
     */
    public double defaultParameter() {
      return defaultParameter;
    }

    /**
     * @return whether the family takes a parameter
     */
    public boolean hasParameter() {
      return !Double.isNaN(defaultParameter);
    }

    /**
     * @return the name used in workload files
     */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param name a family name in any case ({@code Zipf}, {@code NORMAL})
     * @return the family, if there is one of that name
     */
    public static Optional<Kind> parse(String name) {
      for (Kind kind : values()) {
        if (kind.name().equalsIgnoreCase(name.trim())) {
          return Optional.of(kind);
        }
      }
      return Optional.empty();
    }
  }

  /** Checks the parameters: {@link #problem} says what is wrong with them. */
  public Distribution {
    if (kind == null) {
      throw new IllegalArgumentException("distribution kind is required");
    }
    if (!kind.hasParameter()) {
      parameter = Double.NaN;
    } else if (Double.isNaN(parameter)) {
      parameter = kind.defaultParameter();
    }
    if (!kind.hasSecondParameter()) {
      second = Double.NaN;
    } else if (Double.isNaN(second)) {
      second = kind == Kind.NURAND ? Math.floor(0.618 * parameter) : kind.defaultSecond;
    }
    String problem = problem(kind, parameter, second);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
  }

  /**
   * A distribution with one parameter (or none: NaN); the second, if the family has one, is its
   * default.
   *
   * @param kind the family
   * @param parameter the parameter, or NaN for the family's default
   */
  public Distribution(Kind kind, double parameter) {
    this(kind, parameter, Double.NaN);
  }

  /**
   * What is wrong with a family's parameters, for the workload loader's messages and the
   * constructor's exception.
   *
   * @param kind the family
   * @param parameter its parameter (a family without one ignores it)
   * @param second its second parameter, NaN for the default
   * @return a message, or null when they are valid
   */
  public static String problem(Kind kind, double parameter, double second) {
    if (!kind.hasParameter()) {
      return null;
    }
    if (!(parameter > 0) || Double.isInfinite(parameter)) {
      return kind.label() + " parameter must be a positive number, got " + parameter;
    }
    return switch (kind) {
      case HOTSPOT -> {
        if (parameter > 1) {
          yield "hotspot: the hot set's share of the range must be in (0, 1], got " + parameter;
        }
        yield !Double.isNaN(second) && !(second >= 0 && second <= 1)
            ? "hotspot: the share of draws in the hot set must be in [0, 1], got " + second
            : null;
      }
      case NURAND -> {
        if (parameter != Math.rint(parameter) || parameter > (1L << 40)) {
          yield "nurand: A must be a whole number in [1, 2^40], got " + parameter;
        }
        yield !Double.isNaN(second)
                && (second != Math.rint(second) || second < 0 || second > parameter)
            ? "nurand: C must be a whole number in [0, A = " + (long) parameter + "], got " + second
            : null;
      }
      default -> null;
    };
  }

  /**
   * @return the uniform distribution
   */
  public static Distribution uniform() {
    return new Distribution(Kind.UNIFORM, Double.NaN);
  }

  /**
   * @param sigmaFraction the standard deviation as a fraction of the range width
   * @return a truncated normal distribution
   */
  public static Distribution normal(double sigmaFraction) {
    return new Distribution(Kind.NORMAL, sigmaFraction);
  }

  /**
   * @return a truncated normal distribution whose range spans ±3σ
   */
  public static Distribution normal() {
    return new Distribution(Kind.NORMAL, Double.NaN);
  }

  /**
   * @param exponent the exponent s
   * @return a Zipf distribution
   */
  public static Distribution zipf(double exponent) {
    return new Distribution(Kind.ZIPF, exponent);
  }

  /**
   * @param rate the rate λ per range width
   * @return a truncated exponential distribution
   */
  public static Distribution exponential(double rate) {
    return new Distribution(Kind.EXPONENTIAL, rate);
  }

  /**
   * @return the sequential "distribution"
   */
  public static Distribution sequential() {
    return new Distribution(Kind.SEQUENTIAL, Double.NaN);
  }

  /**
   * YCSB's hotspot distribution.
   *
   * @param hotSet the hot set's share of the range, the first values, in (0, 1]
   * @param hotDraws the share of the draws that fall in the hot set, in [0, 1]
   * @return the distribution
   */
  public static Distribution hotspot(double hotSet, double hotDraws) {
    return new Distribution(Kind.HOTSPOT, hotSet, hotDraws);
  }

  /**
   * YCSB's latest distribution: Zipf's law counted down from the upper bound.
   *
   * @param exponent the exponent s
   * @return the distribution
   */
  public static Distribution latest(double exponent) {
    return new Distribution(Kind.LATEST, exponent);
  }

  /**
   * TPC-C's NURand(A, x, y) over a range, with the constant C.
   *
   * @param a A: 255, 1023 or 8191 in TPC-C
   * @param c the run-time constant C, in [0, A]
   * @return the distribution
   */
  public static Distribution nurand(long a, long c) {
    return new Distribution(Kind.NURAND, a, c);
  }

  /**
   * @return whether the distribution can drive a continuous (double) range
   */
  public boolean isContinuous() {
    return kind == Kind.UNIFORM || kind == Kind.NORMAL || kind == Kind.EXPONENTIAL;
  }

  /**
   * The sampler of offsets into a discrete range of {@code n} values.
   *
   * @param n the number of values, unsigned; 0 stands for 2<sup>64</sup>
   * @return a stateless sampler
   */
  public OffsetSampler offsets(long n) {
    double width = unsignedToDouble(n);
    return switch (kind) {
      case UNIFORM -> (rng, seq) -> rng.nextUnsigned(n);
      case SEQUENTIAL -> n == 0 ? (rng, seq) -> seq : (rng, seq) -> Long.remainderUnsigned(seq, n);
      case ZIPF -> {
        Zipf zipf = new Zipf(n == 0 || n < 0 ? Long.MAX_VALUE : n, parameter);
        yield (rng, seq) -> zipf.sample(rng) - 1;
      }
      case NORMAL, EXPONENTIAL -> {
        UnitSampler unit = unit();
        yield (rng, seq) -> scale(unit.unit(rng), width, n);
      }
      case HOTSPOT -> hotspot(n, width);
      case LATEST -> {
        Zipf zipf = new Zipf(n == 0 || n < 0 ? Long.MAX_VALUE : n, parameter);
        // rank 1 is the upper bound: offset n - 1 (n = 0 stands for 2^64, and wraps alike)
        yield (rng, seq) -> n - zipf.sample(rng);
      }
      case NURAND -> {
        long a = (long) parameter;
        long c = (long) second;
        // An offset of the range OR-ed with one of [0, A], shifted by C, folded back: the OR sets
        // the bits of A more often than not, so the values whose low bits match are the frequent
        // ones, spread over the range rather than at one end.
        yield n == 0
            ? (rng, seq) -> (rng.nextUnsigned(a + 1) | rng.nextLong()) + c
            : (rng, seq) ->
                Long.remainderUnsigned((rng.nextUnsigned(a + 1) | rng.nextUnsigned(n)) + c, n);
      }
    };
  }

  /** Hotspot: the first values of the range (at least one) take the hot share of the draws. */
  private OffsetSampler hotspot(long n, double width) {
    double hotDraws = second;
    long hot = (long) Math.max(1, Math.min(Math.floor(width * parameter), 0x1.0p63 - 1024));
    if (n != 0 && Long.compareUnsigned(hot, n) >= 0) {
      return (rng, seq) -> rng.nextUnsigned(n);
    }
    long cold = n - hot; // unsigned: n = 0 stands for 2^64
    return (rng, seq) ->
        rng.nextDouble() < hotDraws ? rng.nextUnsigned(hot) : hot + rng.nextUnsigned(cold);
  }

  /**
   * The sampler of positions in a continuous range, scaled to [0, 1).
   *
   * @return a stateless sampler
   * @throws IllegalStateException for Zipf and sequential, which are discrete
   */
  public UnitSampler unit() {
    return switch (kind) {
      case UNIFORM -> Rng::nextDouble;
      case NORMAL -> {
        double sigma = parameter;
        yield rng -> {
          // Truncation by rejection keeps the exact normal shape inside the range.
          while (true) {
            double x = 0.5 + sigma * rng.nextGaussian();
            if (x >= 0 && x < 1) {
              return x;
            }
          }
        };
      }
      case EXPONENTIAL -> {
        double rate = parameter;
        double mass = -Math.expm1(-rate);
        // Inversion of the exponential CDF restricted to [0, 1): exact and rejection-free.
        yield rng -> {
          double x = -Math.log(1 - rng.nextDouble() * mass) / rate;
          return x < 1 ? x : Math.nextDown(1.0);
        };
      }
      case ZIPF, SEQUENTIAL, HOTSPOT, LATEST, NURAND ->
          throw new IllegalStateException(kind.label() + " is a discrete distribution");
    };
  }

  /**
   * The sampler that hands out each offset of [0, n) at most once: offset = a keyed permutation of
   * the sequence number (the identity for sequential). The distribution's shape is not kept, as no
   * shape but uniform survives "each value once".
   *
   * @param n the number of values, unsigned; 0 stands for 2<sup>64</sup>
   * @param key the permutation key (the column's stream seed)
   * @return the sampler; callers must not pass a sequence number of n or more
   */
  public OffsetSampler uniqueOffsets(long n, long key) {
    if (kind == Kind.SEQUENTIAL) {
      return (rng, seq) -> seq;
    }
    Permutation permutation = new Permutation(n, key);
    return (rng, seq) -> permutation.apply(seq);
  }

  @Override
  public String toString() {
    if (!kind.hasParameter()) {
      return kind.label();
    }
    String shown = shown(parameter);
    return kind.label()
        + "("
        + shown
        + (kind.hasSecondParameter() ? ", " + shown(second) : "")
        + ")";
  }

  private static String shown(double value) {
    return new java.math.BigDecimal(value)
        .round(new java.math.MathContext(4))
        .stripTrailingZeros()
        .toPlainString();
  }

  static double unsignedToDouble(long n) {
    if (n == 0) {
      return 0x1.0p64;
    }
    return n > 0 ? n : (n >>> 1) * 2.0;
  }

  private static long scale(double unit, double width, long n) {
    double x = Math.floor(unit * width);
    long offset = x < 0x1.0p63 ? (long) x : (long) (x - 0x1.0p63) + Long.MIN_VALUE;
    // Rounding of unit * width may touch n itself: stay inside [0, n).
    if (n != 0 && Long.compareUnsigned(offset, n) >= 0) {
      offset = n - 1;
    }
    return offset;
  }
}
