package io.fusillade.jmh.record;

import io.fusillade.record.RequestChannel;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * The cost of recording one request in the {@link RunRecorder}, the call every protocol makes per
 * request, with the recorder's once-a-second flusher running as in a real run.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar RecorderBenchmark}. Each iteration's score is
 * printed: a flat series over many iterations shows that the cost does not grow with the run's
 * length.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class RecorderBenchmark {
  private Path base;
  private RunRecorder run;
  private RequestChannel channel;

  /** Per-thread state: a fixed "intended start" and a sequence that spreads latencies. */
  @State(Scope.Thread)
  public static class Requests {
    final long start = System.nanoTime();
    long sequence;

    /** A latency between 0 and about 1 s, scattered over the histogram's buckets. */
    long endNanos() {
      return start + ((++sequence * 7919L) & 0xFFFFF) * 1_000L;
    }
  }

  @Setup(Level.Trial)
  public void open() throws IOException {
    base = Files.createTempDirectory("fusillade-jmh-");
    run = RunRecorder.open(RunOptions.of("RecorderBenchmark").withBaseDirectory(base));
    channel = run.request("lookup");
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    run.close();
    try (Stream<Path> files = Files.walk(base)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** One thread recording through a channel it holds (how protocols record). */
  @Benchmark
  @Threads(1)
  public void channelOneThread(Requests requests) {
    channel.ok(requests.start, requests.endNanos());
  }

  /** Two threads recording into the same channel at once. */
  @Benchmark
  @Threads(2)
  public void channelTwoThreads(Requests requests) {
    channel.ok(requests.start, requests.endNanos());
  }

  /** One thread recording by name: a map look-up per record. */
  @Benchmark
  @Threads(1)
  public void byNameOneThread(Requests requests) {
    run.record("lookup", requests.start, requests.endNanos(), io.fusillade.record.Status.OK, null);
  }

  /** A request as protocols really report it: counted as sent, then recorded. */
  @Benchmark
  @Threads(2)
  public void sentAndRecordedTwoThreads(Requests requests) {
    channel.sent();
    channel.ok(requests.start, requests.endNanos());
  }
}
