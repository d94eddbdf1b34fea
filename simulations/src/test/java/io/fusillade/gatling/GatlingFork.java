package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs a simulation through Gatling's own launcher in a separate JVM with the test classpath, as
 * {@code mvn gatling:test} does, and reads what it left.
 */
public record GatlingFork(int exitCode, String output, RunRecord record) {

  public static GatlingFork run(Path base, Class<?> simulation, Map<String, String> properties)
      throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path log = base.resolve("gatling.out");
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-Xmx768m");
    command.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    command.add("-Dfusillade.runs.dir=" + base.resolve("runs"));
    properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            "io.gatling.app.Gatling",
            "-s",
            simulation.getName(),
            "-rf",
            base.resolve("gatling").toString()));
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("Gatling finished").isTrue();
    String output = Files.readString(log);
    RunRecord record = null;
    if (Files.isDirectory(base.resolve("runs"))) {
      try (Stream<Path> runs = Files.list(base.resolve("runs"))) {
        List<Path> directories = runs.toList();
        assertThat(directories).as(output).hasSize(1);
        record = RunRecordReader.read(directories.get(0));
      }
    }
    return new GatlingFork(process.exitValue(), output, record);
  }
}
