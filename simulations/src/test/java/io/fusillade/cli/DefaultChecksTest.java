package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunSettings;
import io.fusillade.record.RunSettings.Mode;
import io.fusillade.record.RunSettings.Stage;
import io.fusillade.reports.checks.CheckParser;
import io.fusillade.workload.LogIngest;
import io.fusillade.workload.TopicWorkload;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which default checks each kind of run gets, and that each parses. */
class DefaultChecksTest {

  @Test
  void queueModeIsJudgedOnErrorsAndTheInjector() {
    DefaultChecks d = DefaultChecks.sql(RunSettings.NONE.withMode(Mode.QUEUE).withUsers(4));
    assertThat(d.checks()).containsExactly("errors < 1%", "injector not saturated");
    assertThat(d.notes()).isEmpty();
  }

  @Test
  void rateModeLongEnoughAddsTheRate() {
    DefaultChecks d =
        DefaultChecks.sql(
            RunSettings.NONE
                .withMode(Mode.RATE)
                .withRate(100.0)
                .withDuration(Duration.ofSeconds(30)));
    assertThat(d.checks())
        .containsExactly("errors < 1%", "injector not saturated", "rate >= 99% of target");
    // The runner's defaults: 100/s for 60 s.
    assertThat(DefaultChecks.sql(RunSettings.NONE.withMode(Mode.RATE)).checks())
        .contains("rate >= 99% of target");
  }

  @Test
  void aShortOrSlowRateIsNotJudgedAndTheConsoleSaysWhy() {
    DefaultChecks shortRun =
        DefaultChecks.sql(
            RunSettings.NONE
                .withMode(Mode.RATE)
                .withRate(1000.0)
                .withDuration(Duration.ofSeconds(10)));
    assertThat(shortRun.checks()).doesNotContain("rate >= 99% of target");
    assertThat(shortRun.describe()).contains("rate >= 99% of target is a default only for a rate");
    // 10/s for 40 s: 380 requests in the steady state, too few to judge 1%.
    DefaultChecks slow =
        DefaultChecks.sql(
            RunSettings.NONE
                .withMode(Mode.RATE)
                .withRate(10.0)
                .withDuration(Duration.ofSeconds(40)));
    assertThat(slow.checks()).doesNotContain("rate >= 99% of target");
  }

  @Test
  void stagesHaveNoTargetRate() {
    DefaultChecks d =
        DefaultChecks.sql(
            RunSettings.NONE
                .withMode(Mode.RATE)
                .withStages(List.of(new Stage(0, 100, Duration.ofSeconds(60)))));
    assertThat(d.checks()).containsExactly("errors < 1%", "injector not saturated");
  }

  @Test
  void logsJudgeTheBulkRateOnlyAtAConstantRate() {
    assertThat(DefaultChecks.logs(LogIngest.rate(20, Duration.ofSeconds(60))).checks())
        .containsExactly(
            "errors < 1%", "injector not saturated", "rate >= 99% of target for \"bulk\"");
    assertThat(DefaultChecks.logs(LogIngest.rate(2, Duration.ofSeconds(60))).checks())
        .containsExactly("errors < 1%", "injector not saturated");
    assertThat(DefaultChecks.logs(LogIngest.docs(20_000)).checks())
        .containsExactly("errors < 1%", "injector not saturated");
  }

  @Test
  void topicsWithConsumersCheckDeliveryAndALongConstantRateItsLag() {
    TopicWorkload shortTopic = topic("events", 2, 200.0, Duration.ofSeconds(5));
    assertThat(DefaultChecks.topics(List.of(shortTopic)).checks())
        .containsExactly("errors < 1%", "injector not saturated", "delivery exact");
    TopicWorkload longTopic = topic("events", 2, 200.0, Duration.ofSeconds(20));
    assertThat(DefaultChecks.topics(List.of(longTopic)).checks())
        .containsExactly(
            "errors < 1%", "injector not saturated", "delivery exact", "lag not growing");
    TopicWorkload unread = topic("audit", 0, 200.0, Duration.ofSeconds(20));
    assertThat(DefaultChecks.topics(List.of(longTopic, unread)).checks())
        .containsExactly(
            "errors < 1%",
            "injector not saturated", "delivery exact for \"events\"", "lag not growing");
    assertThat(DefaultChecks.topics(List.of(unread)).checks())
        .containsExactly("errors < 1%", "injector not saturated");
  }

  @Test
  void everyDefaultParses() {
    List<DefaultChecks> all =
        List.of(
            DefaultChecks.sql(RunSettings.NONE.withMode(Mode.RATE)),
            DefaultChecks.logs(LogIngest.rate(20, Duration.ofSeconds(60))),
            DefaultChecks.topics(
                List.of(
                    topic("events", 1, 100.0, Duration.ofSeconds(60)),
                    topic("a-b.c", 1, 100.0, Duration.ofSeconds(60)),
                    topic("x", 0, 100.0, Duration.ofSeconds(60)))));
    for (DefaultChecks d : all) {
      d.checks().forEach(CheckParser::parse);
    }
  }

  private static TopicWorkload topic(String name, int consumers, Double rate, Duration duration) {
    return new TopicWorkload(
        name,
        1,
        1,
        true,
        Map.of(),
        consumers,
        null,
        null,
        Optional.empty(),
        Map.of(),
        Map.of(),
        rate,
        null,
        duration);
  }
}
