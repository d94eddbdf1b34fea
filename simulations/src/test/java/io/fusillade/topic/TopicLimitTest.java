package io.fusillade.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.FusilladeLimit;
import io.fusillade.gatling.GatlingFork;
import io.fusillade.limit.LimitResult;
import io.fusillade.limit.LimitSettings;
import io.fusillade.limit.StepResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limit of writes to a topic is where its readers stop keeping up: with one reader throttled to
 * R messages a second, the search judged by {@code lag not growing} finds R within ±15%, and the
 * steps above it fail on the lag, not on the writes.
 */
// Paired, after the timed tests: its claim is a rate found near a known capacity, a reader's that
// sleeps 4 ms a message, which beside two timed tests (one with containers) fell under 200/s
// (CI, 2026-12-03: the search found 190/s for 250/s); one other light test beside it does not
// bend it (see cli-tests' pom).
@Tag("paired")
@Tag("slow")
class TopicLimitTest {
  @TempDir Path base;

  @Test
  void aTopicWhoseReaderIsThrottledIsLimitedNearTheReadersRate() throws Exception {
    LimitSettings limit =
        LimitSettings.DEFAULTS
            .withFrom(100)
            .withStep(Duration.ofSeconds(5))
            .withSlo(List.of("errors < 1%", "lag not growing"));
    Map<String, String> properties = new HashMap<>(limit.toProperties());
    // The injector's lag threshold of this search: 100 ms, not 20. Its subject is the readers'
    // rate; beside a broker and a throttled reader on two cores, the injector lagged 23 to 26 ms
    // at 190 messages a second once in CI, and the search (rightly) stopped at the injector. That
    // verdict is ExitCodesTest's and LimitSearchTest's.
    properties.put(io.fusillade.plan.PlanProperties.LAG_THRESHOLD, "100");
    GatlingFork run = GatlingFork.run(base, TopicLimitSimulation.class, properties);

    assertThat(run.exitCode()).as(run.output()).isZero();
    LimitResult result =
        LimitResult.fromMap(
            (Map<?, ?>) run.record().manifest().parameters().get(FusilladeLimit.PARAMETER));
    double readers = 1000.0 / TopicLimitSimulation.PROCESSING.toMillis();
    assertThat(result.verdict()).as(run.output()).isEqualTo(LimitResult.Verdict.FOUND);
    assertThat(result.limit()).as(run.output()).isBetween(readers * 0.85, readers * 1.15);
    List<StepResult> above =
        result.steps().stream().filter(s -> s.target() > readers * 1.2).toList();
    assertThat(above).isNotEmpty();
    assertThat(above)
        .allSatisfy(
            s -> {
              assertThat(s.passed()).isFalse();
              assertThat(s.lag()).startsWith("growing");
              assertThat(s.achieved()).as("the writes kept up").isGreaterThan(s.target() * 0.95);
            });
  }
}
