package io.fusillade.reports.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LadderTest {
  /**
   * A ladder whose only run ended before any request (its injector's JVM failed) is shown with its
   * level marked and "-" for every figure, not a stack trace (CI, 2026-12-03).
   */
  @Test
  void aLevelWithoutAnyRequestRendersAsDashes() {
    Ladder ladder =
        new Ladder(
                List.of(1.0),
                List.of("q1", "whole set"),
                Map.of(),
                Map.of(),
                Map.of(1.0, 1),
                Map.of(),
                List.of())
            .withFailures(List.of(new Ladder.Failure(1.0, 1, "the injector's JVM ended")));

    String table = ladder.render(null);

    assertThat(table).contains("1 x").contains("whole set /s");
    assertThat(table.lines().map(String::strip).filter(l -> l.startsWith("q1")))
        .as(table)
        .singleElement()
        .asString()
        .endsWith("-");
  }
}
