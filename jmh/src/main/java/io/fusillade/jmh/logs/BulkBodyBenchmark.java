package io.fusillade.jmh.logs;

import io.fusillade.logs.BulkBodies;
import io.fusillade.logs.JsonBuffer;
import io.fusillade.logs.LogProfile;
import io.fusillade.logs.LogSource;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Building {@code _bulk} bodies on one core: documents per second (the score is per document,
 * thanks to {@link OperationsPerInvocation}). Goal: at least 500,000 documents/s for the web
 * profile without gzip.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar BulkBodyBenchmark
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
@State(Scope.Thread)
public class BulkBodyBenchmark {
  static final int DOCS = 5_000;

  @Param({"web", "k8s"})
  String profile;

  @Param({"false", "true"})
  boolean gzip;

  private LogSource source;
  private final JsonBuffer plain = new JsonBuffer(4 << 20);
  private final JsonBuffer wire = new JsonBuffer(1 << 20);
  private BulkBodies bodies;
  private long next;

  @Setup(Level.Trial)
  public void setUp() {
    source = LogProfile.parse(profile).orElseThrow().source(1);
    bodies = new BulkBodies();
  }

  /** One bulk of 5,000 documents; the score is documents/s. */
  @Benchmark
  @OperationsPerInvocation(DOCS)
  public int bulkOf5000() {
    plain.reset();
    BulkBodies.append(source, next, DOCS, plain);
    next += DOCS;
    if (gzip) {
      bodies.gzip(plain, wire);
      return wire.length();
    }
    return plain.length();
  }
}
