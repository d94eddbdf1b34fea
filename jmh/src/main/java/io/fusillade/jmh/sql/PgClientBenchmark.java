package io.fusillade.jmh.sql;

import io.fusillade.sql.SqlOutcome;
import io.fusillade.sql.pg.PgWireHarness;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The native PostgreSQL client's hot path, without a server: one prepared point select, from the
 * request to its outcome, on the real connection class ({@link PgWireHarness}, the sql module's
 * test-jar: the socket and the server left out, the injector's share of a query). Run: {@code java
 * -jar jmh/target/benchmarks.jar PgClientBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class PgClientBenchmark {
  private PgWireHarness wire;

  @Setup(Level.Trial)
  public void setUp() {
    wire = new PgWireHarness();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    wire.close();
  }

  /** A point select without checks: its rows are counted, none is read. */
  @Benchmark
  public SqlOutcome pointSelect() {
    return wire.pointSelect();
  }

  /** A point select whose check reads the first row's {@code balance} column. */
  @Benchmark
  public SqlOutcome pointSelectChecked() {
    return wire.pointSelectChecked();
  }
}
