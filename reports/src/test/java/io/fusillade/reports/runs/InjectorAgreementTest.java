package io.fusillade.reports.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The merged records of a split test are flagged when they are not the whole test. */
class InjectorAgreementTest {
  private static final long START = 1_700_000_000_000L;

  @TempDir Path base;

  private Path injector(int index, long start) throws Exception {
    return SyntheticRecord.run()
        .start(start)
        .seconds(5)
        .parameter("injectors", 3)
        .parameter("injectorIndex", index)
        .parameter("rate", 100)
        .write(base, "injector-" + index);
  }

  @Test
  void threeInjectorsStartedTogetherAreTheWholeTest() throws Exception {
    RunData run =
        RunData.load(
            List.of(injector(0, START), injector(1, START + 200), injector(2, START + 90)));
    assertThat(run.flags()).isEmpty();
    // the test's target rate is the sum of the injectors' shares
    assertThat(
            io.fusillade.reports.checks.CheckParser.parse("rate >= 1% of target")
                .evaluate(run)
                .measured())
        .endsWith("of rate 300");
  }

  private Path injector(int index, double clockOffsetMs) throws Exception {
    return SyntheticRecord.run()
        .start(START)
        .seconds(5)
        .parameter("injectors", 2)
        .parameter("injectorIndex", index)
        .parameter("rate", 100)
        .parameter("clockOffsetMs", clockOffsetMs)
        .parameter("clockReference", "jdbc:postgresql://db1:5432/app")
        .write(base, "clock-" + index);
  }

  @Test
  void injectorsWhoseClocksDisagreeAreFlagged() throws Exception {
    assertThat(RunData.load(List.of(injector(0, 1.5), injector(1, -40.25))).flags()).isEmpty();
    assertThat(RunData.load(List.of(injector(0, 1.5), injector(1, -349.6))).flags())
        .containsExactly(
            "the injectors' clocks disagree by 351.1 ms (their offsets to"
                + " jdbc:postgresql://db1:5432/app: injector 0 +1.5 ms, injector 1 -349.6 ms):"
                + " their seconds do not line up; synchronise their clocks (NTP)");
  }

  @Test
  void aMissingInjectorAndStartsApartAreFlagged() throws Exception {
    RunData run = RunData.load(List.of(injector(0, START), injector(2, START + 2_500)));
    assertThat(run.flags())
        .containsExactly(
            "the test had 3 injectors; the records of injector index [1] are missing: the report"
                + " is of part of the test",
            "the injectors' records start 2500 ms apart: their seconds do not line up (start them"
                + " with --start-at)");
  }
}
