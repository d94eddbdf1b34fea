package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --queries} on run, limit and ladder: a set that names nothing in the file is a user error
 * before anything starts (exit 2, one line naming the tags and queries there are), and a set is
 * carried to the Gatling JVM as written.
 */
class QueriesOptionTest {
  private static final String TPCH = Path.of("..", "workloads", "tpch.yml").toString();
  private static final String NOWHERE = "jdbc:postgresql://127.0.0.1:1/x";

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"run", "limit", "ladder"})
  void aSetNamingNothingInTheFileIsAUserErrorBeforeAnythingStarts(String command) {
    CliRun run = CliRun.of(command, TPCH, "--queries", "lite,Q23", "--url", NOWHERE);

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().strip())
        .startsWith("fusillade: --queries: no tag or query 'Q23' in ")
        .contains("did you mean 'Q2'?", "tags: full, lite;", "queries: Q1, Q2, Q3")
        .doesNotContain("Exception");
  }

  @Test
  void aFileWithoutQueriesHasNothingToSelect() throws Exception {
    Path logs = dir.resolve("logs.yml");
    Files.writeString(logs, "logs:\n  rate: 1\n  duration: 1s\n");
    CliRun run = CliRun.of("run", logs.toString(), "--queries", "lite");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().strip())
        .isEqualTo("fusillade: --queries selects SQL queries; " + logs + " has none");
  }

  @Test
  void theSetReachesTheRunPlanAsWritten() {
    QueriesOption option = new QueriesOption();
    assertThat(option.items()).isEmpty();
    option.queries = "lite, Q22";
    assertThat(option.items()).containsExactly("lite", "Q22");
  }
}
