package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code fusillade run} prints and leaves, as a user sees it in a terminal (the real process,
 * whose Gatling JVM writes to the same console): Fusillade's progress every 5 seconds instead of
 * Gatling's console, and no Gatling results unless {@code --gatling-report} asks for them (the
 * tests of signals, abort rules and secrets run with it and find Gatling's report).
 */
@Tag("slow")
class RunConsoleTest {
  @TempDir Path dir;

  @Test
  void printsFusilladesProgressAndWritesNoGatlingResultsUnlessAsked() throws Exception {
    Path workload = dir.resolve("console.yml");
    Files.writeString(
        workload,
        """
        tables_schema:
          - name: con
            row_count: 50
            columns:
              - {name: id, type: integer, range: [1, 50], unique: true}
            primary_keys: [id]
        queries:
          - name: by id
            sql: select id from con where id = $1::integer
            params:
              - {type: integer, range: [1, 50]}
        load: {mode: rate, rate: 100, duration: 11s}
        checks: [errors < 1%]
        """);
    Path output = dir.resolve("out");
    Path console = dir.resolve("console.txt");
    Process cli =
        new ProcessBuilder(
                CliProcess.command("run", workload.toString(), "--output", output.toString()))
            .redirectErrorStream(true)
            .redirectOutput(console.toFile())
            .start();
    try {
      assertThat(cli.waitFor(4, TimeUnit.MINUTES)).as("the run ended").isTrue();
    } finally {
      cli.descendants().forEach(ProcessHandle::destroyForcibly);
      cli.destroyForcibly();
    }
    String text = Files.readString(console);
    assertThat(cli.exitValue()).as(text).isZero();
    assertThat(text)
        .containsPattern(
            "Fusillade 5 s: by id  \\d+/s  OK [\\d,]+  KO 0  p99 [\\d.,]+ ms \\(last 5 s\\)")
        .containsPattern("Fusillade 10 s: by id  (9\\d|10\\d)/s  OK [\\d,]+  KO 0  p99 ")
        .doesNotContain("---- Requests");
    List<String> files;
    try (Stream<Path> walk = Files.walk(output)) {
      files = walk.map(p -> p.getFileName().toString()).toList();
    }
    assertThat(files).contains("run.json", "index.html").doesNotContain("simulation.log");
  }
}
