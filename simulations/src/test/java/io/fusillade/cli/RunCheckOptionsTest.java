package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fusillade run}'s checks are validated before anything runs: a typo costs no run. */
class RunCheckOptionsTest {
  @TempDir Path dir;

  private Path file(String yaml) throws Exception {
    Path file = dir.resolve("w.yml");
    Files.writeString(file, yaml);
    return file;
  }

  @Test
  void aBadCheckInTheFileIsNamedByItsLineAndColumn() throws Exception {
    Path file =
        file(
            """
            queries:
              - sql: select 1
            checks:
              - p99 < 50ms
              - p99 below 50ms
            """);
    // An unreachable database: the check is reported before any connection is tried.
    CliRun result = CliRun.of("run", file.toString(), "--url", "jdbc:postgresql://127.0.0.1:1/x");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().strip())
        .startsWith("fusillade: " + file + ":5:5 checks[1]: check \"p99 below 50ms\": ")
        .doesNotContain("\tat ");
  }

  @Test
  void aBadCheckOptionIsAUserError() throws Exception {
    Path file = file("queries:\n  - sql: select 1\n");
    CliRun result =
        CliRun.of(
            "run", file.toString(), "--url", "jdbc:postgresql://127.0.0.1:1/x", "--check", "p99");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().strip()).startsWith("fusillade: --check: check \"p99\": ");
  }

  @Test
  void aBadAbortRuleInTheFileOrAnOptionIsAUserErrorBeforeAnythingRuns() throws Exception {
    Path file = file("queries:\n  - sql: select 1\nabort:\n  - errors > 5 over 10s\n");
    CliRun inFile = CliRun.of("run", file.toString(), "--url", "jdbc:postgresql://127.0.0.1:1/x");
    assertThat(inFile.exitCode()).isEqualTo(2);
    assertThat(inFile.err().strip())
        .contains(
            file
                + ":4:5 abort[0]: abort rule 'errors > 5 over 10s': an error share is a"
                + " percentage")
        .doesNotContain("\tat ");

    Path good = file("queries:\n  - sql: select 1\n");
    CliRun option =
        CliRun.of(
            "run",
            good.toString(),
            "--url",
            "jdbc:postgresql://127.0.0.1:1/x",
            "--abort-when",
            "errors > 5%");
    assertThat(option.exitCode()).isEqualTo(2);
    assertThat(option.err().strip())
        .isEqualTo(
            "fusillade: --abort-when: abort rule 'errors > 5%' is not of the form 'errors > 5%"
                + " over 10s' or 'p99 > 2s over 30s'");
  }

  @Test
  void aBrokenLoadSectionIsListedWithItsLine() throws Exception {
    Path file = file("queries:\n  - sql: select 1\nload: {mode: queue, rate: 5}\n");
    CliRun result = CliRun.of("run", file.toString());
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err())
        .contains(
            file
                + ":3:27 load.rate: rate goes with mode: rate (queue mode runs the queue once,"
                + " with users)");
  }
}
