package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.limit.LimitResult;
import io.fusillade.limit.LimitResult.Verdict;
import io.fusillade.limit.LimitSettings;
import io.fusillade.plan.ExitCode;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exit code of {@code fusillade limit} for each verdict of its search, as command-line.md's
 * table states it; the search's verdicts themselves are LimitSearchTest's, one forked search per
 * code path is LimitCommandTest's (0, 3) and ExitCodesTest's (5). Also the objectives the command
 * resolves for a workload: a topic's readers' lag joins the defaults (a search judged on it runs in
 * TopicLimitTest, and through the command, a topic's study, in StreamingStudyRunTest).
 */
class LimitCommandCodeTest {
  private static LimitResult ended(Verdict verdict, Double limit, double sustained) {
    return new LimitResult(verdict, limit, sustained, null, List.of());
  }

  @Test
  void eachVerdictHasItsCode() {
    assertThat(LimitCommand.code(ended(Verdict.FOUND, 1500.0, 1500), null)).isEqualTo(ExitCode.OK);
    assertThat(LimitCommand.code(ended(Verdict.ABOVE_MAX, null, 4000), null))
        .isEqualTo(ExitCode.OK);
    assertThat(LimitCommand.code(ended(Verdict.BELOW_MIN, null, 0), null))
        .isEqualTo(ExitCode.CHECK_FAILED);
    assertThat(LimitCommand.code(ended(Verdict.INJECTOR_LIMIT, null, 800), null))
        .isEqualTo(ExitCode.INJECTOR_LIMIT);
    assertThat(LimitCommand.code(ended(Verdict.UNSTABLE, null, 800), null))
        .isEqualTo(ExitCode.UNSTABLE);
    assertThat(LimitCommand.code(ended(Verdict.OUT_OF_STEPS, null, 800), null))
        .isEqualTo(ExitCode.UNSTABLE);
    assertThat(LimitCommand.code(ended(Verdict.STOPPED, null, 800), null))
        .isEqualTo(ExitCode.FAILED);
    assertThat(List.of(ExitCode.INJECTOR_LIMIT.code(), ExitCode.UNSTABLE.code()))
        .containsExactly(5, 6);
  }

  @Test
  void anExpectationMetIsZeroWhateverEndedTheSearchAndOneMissedIsThree() {
    // met: the search ran out of steps, or was unstable, above what the user needed
    assertThat(LimitCommand.code(ended(Verdict.OUT_OF_STEPS, null, 2500), 2000.0))
        .isEqualTo(ExitCode.OK);
    assertThat(LimitCommand.code(ended(Verdict.FOUND, 2100.0, 2100), 2000.0))
        .isEqualTo(ExitCode.OK);
    // missed: 3, even for a limit found
    assertThat(LimitCommand.code(ended(Verdict.FOUND, 1500.0, 1500), 2000.0))
        .isEqualTo(ExitCode.CHECK_FAILED);
    assertThat(LimitCommand.code(ended(Verdict.UNSTABLE, null, 800), 2000.0))
        .isEqualTo(ExitCode.CHECK_FAILED);
    // except where the injector was the limit (the system was not measured) or the run stopped
    assertThat(LimitCommand.code(ended(Verdict.INJECTOR_LIMIT, null, 800), 2000.0))
        .isEqualTo(ExitCode.INJECTOR_LIMIT);
    assertThat(LimitCommand.code(ended(Verdict.STOPPED, null, 800), 2000.0))
        .isEqualTo(ExitCode.FAILED);
  }

  @Test
  void aTopicsReadersLagJoinsTheDefaultObjectivesAndNotTheUsersOwn(@TempDir Path dir)
      throws Exception {
    Path readers =
        Files.writeString(
            dir.resolve("readers.yml"),
            "topics:\n  - {name: events, consumers: 1, rate: 10, duration: 10s}\n");
    Path writers =
        Files.writeString(
            dir.resolve("writers.yml"),
            "topics:\n  - {name: events, consumers: 0, rate: 10, duration: 10s}\n");
    Path own =
        Files.writeString(
            dir.resolve("own.yml"),
            "topics:\n  - {name: events, consumers: 1, rate: 10, duration: 10s}\n"
                + "limit:\n  slo: [errors < 1%, p99 < 2s]\n");
    PrintWriter quiet = new PrintWriter(Writer.nullWriter());

    assertThat(new LimitCommand().resolve(WorkloadFiles.load(readers), quiet).slo())
        .containsAll(LimitSettings.DEFAULT_SLO)
        .contains("lag not growing");
    assertThat(new LimitCommand().resolve(WorkloadFiles.load(writers), quiet).slo())
        .as("no readers (a topic has one unless told), no lag to judge")
        .doesNotContain("lag not growing");
    assertThat(new LimitCommand().resolve(WorkloadFiles.load(own), quiet).slo())
        .as("the user's own objectives are the user's")
        .doesNotContain("lag not growing");
  }
}
