package io.fusillade.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run whose JVM is killed with SIGKILL still leaves a record that reads. */
@Tag("slow")
class KilledRunTest {
  @TempDir Path base;

  /** The process that gets killed: records 100 requests per 10 ms until it dies. */
  public static void main(String[] args) throws Exception {
    RunRecorder run =
        RunRecorder.open(
            RunOptions.of("Killed")
                .withBaseDirectory(Path.of(args[0]))
                .withFlushInterval(Duration.ofMillis(200)));
    RequestChannel q = run.request("q");
    while (true) {
      long t = System.nanoTime();
      for (int i = 0; i < 100; i++) {
        q.sent();
        q.ok(t, t + 1000);
      }
      Thread.sleep(10);
    }
  }

  @Test
  void killMinusNineLeavesAReadableIncompleteRecord() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                KilledRunTest.class.getName(),
                base.toString())
            .redirectErrorStream(true)
            .redirectOutput(base.resolve("process.log").toFile())
            .start();
    try {
      Path counters = waitForLines(base, 5, Duration.ofSeconds(30));
      assertThat(counters).as("the child wrote a run record").isNotNull();
    } finally {
      process.destroyForcibly(); // SIGKILL: no shutdown hook runs
      process.waitFor(10, TimeUnit.SECONDS);
    }
    Path directory;
    try (Stream<Path> runs = Files.list(base)) {
      directory = runs.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    RunRecord record = RunRecordReader.read(directory);
    assertThat(record.manifest().status()).isEqualTo(RunStatus.INCOMPLETE);
    assertThat(record.manifest().endEpochMs()).isNull();
    long okInSeconds =
        record.seconds().stream().mapToLong(s -> s.requests().getOrDefault("q", EMPTY).ok()).sum();
    assertThat(record.requests().get("q").okCount())
        .isGreaterThanOrEqualTo(500)
        .isEqualTo(okInSeconds);
    assertThat(record.durationSeconds()).isGreaterThan(0.5);
  }

  private static final SecondCounts.RequestSecond EMPTY =
      new SecondCounts.RequestSecond(0, 0, 0, 0, java.util.Map.of());

  private static Path waitForLines(Path base, int lines, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      try (Stream<Path> runs = Files.list(base)) {
        List<Path> found =
            runs.map(p -> p.resolve(RunFiles.COUNTERS)).filter(Files::isRegularFile).toList();
        for (Path counters : found) {
          if (Files.readAllLines(counters).size() >= lines) {
            return counters;
          }
        }
      }
      Thread.sleep(50);
    }
    return null;
  }
}
