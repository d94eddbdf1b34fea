package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.local.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade run} decides its exit code by the workload's {@code checks:} and {@code
 * --check}, as {@code fusillade report} does (3 when one fails), and runs the file's {@code load}.
 */
@Tag("slow")
class RunChecksCommandTest {
  private static LocalPostgres postgres;

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    postgres = LocalPostgres.start();
  }

  @AfterAll
  static void stop() {
    postgres.close();
  }

  /** A small queue workload on its own table, with the given checks. */
  private Path workload(String name, String checks) throws Exception {
    return workload(name, "load: {users: 2}", checks);
  }

  /** A workload on its own table, with the given load section and checks. */
  private Path workload(String name, String load, String checks) throws Exception {
    Path file = dir.resolve(name + ".yml");
    Files.writeString(
        file,
        """
        config_name: QUEUE
        tables_schema:
          - name: %s
            row_count: 20
            columns:
              - {name: id, type: integer, range: [1, 20], unique: true}
            primary_keys: [id]
        queries:
          - name: by id
            sql: select id from %s where id = $1::integer
            params:
              - {type: integer, range: [1, 20]}
            count: 20
        %s
        checks:
        %s
        """
            .formatted(name, name, load, checks));
    return file;
  }

  private CliRun run(Path file, String... more) {
    List<String> args =
        Stream.concat(
                Stream.of(
                    "run",
                    file.toString(),
                    "--url",
                    postgres.jdbcUrl(),
                    "--setup",
                    "true",
                    "--teardown",
                    "--output",
                    dir.resolve("out").toString()),
                Stream.of(more))
            .toList();
    return CliRun.of(args.toArray(String[]::new));
  }

  /**
   * One run for both sources of checks: the file's (one passes, one fails) and a {@code --check},
   * which adds to them. Passing checks exiting 0 is {@link #theStagesOfTheFileAreRunAndRecorded}'s.
   */
  @Test
  void aFailedCheckOfTheFileOrOfTheCheckOptionExitsThree() throws Exception {
    CliRun result =
        run(workload("cars_fail", "  - errors < 1%\n  - p99 < 1us"), "--check", "p99 < 2us");
    assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(3);
    assertThat(result.err()).contains("2 checks failed (p99 < 1us; p99 < 2us): exit code 3");
    // The file's load (queue mode from config_name, 2 users) and checks are in run.json, with the
    // option's after them.
    JsonNode manifest = manifest();
    assertThat(manifest.path("parameters").path("mode").asText()).isEqualTo("queue");
    assertThat(manifest.path("parameters").path("users").asInt()).isEqualTo(2);
    assertThat(manifest.path("checks").toString())
        .contains("errors < 1%", "p99 < 1us", "p99 < 2us");
  }

  @Test
  void theStagesOfTheFileAreRunAndRecorded() throws Exception {
    Path file =
        workload(
            "cars_stages",
            """
            load:
              mode: rate
              stages:
                - {ramp: 0..20, over: 1s}
                - {hold: 20, for: 1s}
                - {spike: 40, for: 1s}
            """,
            "  - errors < 1%");
    CliRun result = run(file);
    assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
    JsonNode parameters = manifest().path("parameters");
    assertThat(parameters.path("mode").asText()).isEqualTo("rate");
    assertThat(parameters.path("stages").toString())
        .isEqualTo(
            "[{\"from\":0,\"to\":20,\"seconds\":1},{\"from\":20,\"to\":20,\"seconds\":1},"
                + "{\"from\":40,\"to\":40,\"seconds\":1}]");
    assertThat(parameters.has("rate")).isFalse();
  }

  private JsonNode manifest() throws Exception {
    try (Stream<Path> runs = Files.list(dir.resolve("out"))) {
      Path run =
          runs.filter(p -> Files.isRegularFile(p.resolve("run.json"))).findFirst().orElseThrow();
      return new ObjectMapper().readTree(run.resolve("run.json").toFile());
    }
  }
}
