package io.fusillade.jmh.gen;

import io.fusillade.gen.Alphabet;
import io.fusillade.gen.Distribution;
import io.fusillade.gen.Rng;
import io.fusillade.gen.RowGenerator;
import io.fusillade.gen.Seeds;
import io.fusillade.gen.ValueGenerator;
import io.fusillade.gen.ValueSpec;
import io.fusillade.gen.ValueType;
import io.fusillade.gen.Zipf;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.commons.math3.distribution.ZipfDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The generator module's hot paths, one thread each.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar GeneratorBenchmark}. Goals (issue 3): uniform
 * long >= 100 M values/s; Zipf(s = 1.1, n = 1,000,000) >= 20 M values/s and >= 5x commons-math3's
 * {@code ZipfDistribution.sample()} measured in the same run; a 6-column mixed row >= 2 M rows/s.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
public class GeneratorBenchmark {
  private Rng rng;
  private Zipf zipf;
  private ZipfDistribution commonsZipf;
  private ValueGenerator uniformLongColumn;
  private RowGenerator sixColumns;
  private Object[] row;

  @Setup
  public void setUp() {
    rng = new Rng(Seeds.stream(42, "bench", "x"));
    zipf = new Zipf(1_000_000, 1.1);
    commonsZipf = new ZipfDistribution(new Well19937c(42), 1_000_000, 1.1);
    uniformLongColumn =
        ValueGenerator.create(
            ValueSpec.builder("v", ValueType.LONG).range(0L, 1_000_000_000L).build(),
            42,
            "bench",
            0,
            1);
    sixColumns =
        RowGenerator.of(
            "orders",
            List.of(
                ValueSpec.builder("id", ValueType.LONG)
                    .distribution(Distribution.sequential())
                    .range(1L, Long.MAX_VALUE / 2)
                    .build(),
                ValueSpec.builder("customer", ValueType.INTEGER)
                    .distribution(Distribution.zipf(1.1))
                    .range(1, 1_000_000)
                    .build(),
                ValueSpec.builder("status", ValueType.STRING)
                    .distribution(Distribution.zipf(1.1))
                    .alphabet(Alphabet.english())
                    .range(1, 20)
                    .build(),
                ValueSpec.builder("amount", ValueType.DOUBLE)
                    .distribution(Distribution.normal())
                    .range(0.0, 1000.0)
                    .build(),
                ValueSpec.builder("created", ValueType.DATETIME)
                    .range(
                        Instant.parse("2024-01-01T00:00:00Z"),
                        Instant.parse("2025-01-01T00:00:00Z"))
                    .build(),
                ValueSpec.builder("paid", ValueType.BOOLEAN).probability(0.7).build()),
            42);
    row = new Object[6];
  }

  /** The raw stream: a uniform long in a range, no boxing. */
  @Benchmark
  public long uniformLong() {
    return rng.nextLong(0, 1_000_000_000L);
  }

  /** A uniform LONG column as simulations see it: the value boxed, nulls and uniqueness checked. */
  @Benchmark
  public Object uniformLongColumn() {
    return uniformLongColumn.next();
  }

  /** Fusillade's Zipf: rejection-inversion on the SplitMix64 stream. */
  @Benchmark
  public long zipf() {
    return zipf.sample(rng);
  }

  /** commons-math3's ZipfDistribution.sample(), the baseline of the 5x goal. */
  @Benchmark
  public int commonsMathZipf() {
    return commonsZipf.sample();
  }

  /** One row of six mixed columns into a reused array. */
  @Benchmark
  public Object[] sixColumnRow() {
    sixColumns.next(row);
    return row;
  }
}
