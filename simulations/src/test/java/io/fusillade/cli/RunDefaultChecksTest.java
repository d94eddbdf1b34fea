package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.local.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workload without {@code checks:} gets default checks from {@code fusillade run}: said on the
 * console before the run, recorded in {@code run.json}, and deciding the exit code; {@code checks:
 * []} opts out.
 */
@Tag("slow")
class RunDefaultChecksTest {
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

  /** A queue workload on its own table: {@code sql} runs 20 times; {@code tail} ends the file. */
  private Path workload(String name, String sql, String tail) throws Exception {
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
            sql: %s
            params:
              - {type: integer, range: [1, 20]}
            count: 20
        load: {users: 2}
        %s
        """
            .formatted(name, sql.formatted(name), tail));
    return file;
  }

  private static final String GOOD = "select id from %s where id = $1::integer";

  /** Every query divides by zero: all KO, a server-class error. */
  private static final String FAILING = "select id / (id - $1::integer) from %s";

  private CliRun run(Path file) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "run",
                file.toString(),
                "--url",
                postgres.jdbcUrl(),
                "--setup",
                "true",
                "--teardown",
                "--output",
                dir.resolve("out-" + file.getFileName()).toString()));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void aRunThatFailsADefaultCheckExitsThreeAndNamesIt() throws Exception {
    Path file = workload("dflt_fail", FAILING, "");
    CliRun result = run(file);
    assertThat(result.out())
        .contains(
            "fusillade: the workload declares no checks; default checks: errors < 1%, injector"
                + " not saturated (a failed one exits 3)");
    assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(3);
    assertThat(result.err()).contains("check failed (errors < 1%");
    assertThat(checks(file)).containsExactly("errors < 1%", "injector not saturated");
    // fusillade report evaluates them again from run.json.
    CliRun report =
        CliRun.of(
            "report",
            dir.resolve("out-" + file.getFileName()).toString(),
            "--output",
            dir.resolve("report").toString());
    assertThat(report.exitCode()).as(report.out() + report.err()).isEqualTo(3);
    assertThat(report.out() + report.err()).contains("FAILED: errors < 1%");
  }

  @Test
  void aHealthyRunPassesItsDefaultChecks() throws Exception {
    Path file = workload("dflt_pass", GOOD, "");
    CliRun result = run(file);
    assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
    assertThat(result.out()).contains("default checks: errors < 1%, injector not saturated");
    assertThat(checks(file)).containsExactly("errors < 1%", "injector not saturated");
  }

  @Test
  void anEmptyChecksListOptsOut() throws Exception {
    Path file = workload("dflt_none", FAILING, "checks: []");
    CliRun result = run(file);
    assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
    assertThat(result.out()).doesNotContain("default checks");
    assertThat(checks(file)).isEmpty();
  }

  private List<String> checks(Path file) throws Exception {
    try (Stream<Path> runs = Files.list(dir.resolve("out-" + file.getFileName()))) {
      Path run =
          runs.filter(p -> Files.isRegularFile(p.resolve("run.json"))).findFirst().orElseThrow();
      JsonNode manifest = new ObjectMapper().readTree(run.resolve("run.json").toFile());
      List<String> checks = new ArrayList<>();
      manifest.path("checks").forEach(c -> checks.add(c.asText()));
      return checks;
    }
  }
}
