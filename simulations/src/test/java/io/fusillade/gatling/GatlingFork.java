package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs a simulation through {@link GatlingLauncher} as the tests do (its output in {@code
 * BASE/gatling.out}, run records under {@code BASE/runs}, Gatling's results under {@code
 * BASE/gatling}, Netty's leak detector on, a 768 MB heap, five minutes at most), and reads what it
 * left.
 *
 * @param exitCode Gatling's exit code
 * @param output what the JVM printed
 * @param record the one run record it left, or null when it left none
 */
public record GatlingFork(int exitCode, String output, RunRecord record) {

  /** The tests' launcher of {@code simulation}, writing under {@code base}. */
  public static GatlingLauncher launcher(Path base, Class<?> simulation) {
    return GatlingLauncher.of(simulation)
        .withHeap("768m")
        .withLeakDetection(true)
        .withRunsDirectory(base.resolve("runs"))
        .withResults(base.resolve("gatling"))
        .withOutput(base.resolve("gatling.out"))
        .withTimeout(Duration.ofMinutes(5));
  }

  public static GatlingFork run(Path base, Class<?> simulation, Map<String, String> properties)
      throws Exception {
    return run(launcher(base, simulation).withProperties(properties));
  }

  /** Runs {@code launcher}, which must have an output file. */
  public static GatlingFork run(GatlingLauncher launcher) throws Exception {
    int exit = launcher.run();
    String output = Files.readString(launcher.output());
    RunRecord record = null;
    Path runs = launcher.runsDirectory();
    if (runs != null && Files.isDirectory(runs)) {
      try (Stream<Path> list = Files.list(runs)) {
        List<Path> directories = list.toList();
        assertThat(directories).as(output).hasSize(1);
        record = RunRecordReader.read(directories.get(0));
      }
    }
    return new GatlingFork(exit, output, record);
  }
}
