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
 * </ul>
 *
 * @param kind the family
 * @param parameter the family's parameter, as described above
 */
public record Distribution(Kind kind, double parameter) {

  /** The distribution families. */
  public enum Kind {
    UNIFORM(Double.NaN),
    NORMAL(1.0 / 6),
    ZIPF(1.0),
    EXPONENTIAL(5.0),
    SEQUENTIAL(Double.NaN);

    private final double defaultParameter;

    Kind(double defaultParameter) {
      this.defaultParameter = defaultParameter;
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

  /** Checks the parameter. */
  public Distribution {
    if (kind == null) {
      throw new IllegalArgumentException("distribution kind is required");
    }
    if (!kind.hasParameter()) {
      parameter = Double.NaN;
    } else if (Double.isNaN(parameter)) {
      parameter = kind.defaultParameter();
    } else if (!(parameter > 0) || Double.isInfinite(parameter)) {
      throw new IllegalArgumentException(
          kind.label() + " parameter must be a positive number, got " + parameter);
    }
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
    };
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
      case ZIPF, SEQUENTIAL ->
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
    String shown =
        new java.math.BigDecimal(parameter)
            .round(new java.math.MathContext(4))
            .stripTrailingZeros()
            .toPlainString();
    return kind.label() + "(" + shown + ")";
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
