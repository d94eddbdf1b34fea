package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunSettings.Stage;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code stages} in a topic and in the {@code logs} section: the same list as {@code load.stages},
 * read by the same parser, with their contradictions located at their line and column.
 */
class StagesSectionsTest {

  private static final List<Stage> PROFILE =
      List.of(
          new Stage(0, 200, Duration.ofSeconds(10)),
          new Stage(200, 200, Duration.ofSeconds(60)),
          new Stage(1000, 1000, Duration.ofSeconds(10)),
          new Stage(200, 50, Duration.ofSeconds(5)));

  private static LoadResult parse(String yaml) {
    return WorkloadLoader.parse("s.yml", yaml, name -> null);
  }

  private static List<String> problems(String yaml) {
    return parse(yaml).problems().stream().map(Problem::toString).toList();
  }

  @Test
  void aTopicsStagesAreReadLikeLoadStages() {
    Workload w =
        parse(
                """
                topics:
                  - name: events
                    stages:
                      - {ramp: 0..200, over: 10s}
                      - {hold: 200, for: 60s}
                      - {spike: 1000, for: 10s}
                      - {ramp: 50, over: 5s}
                  - name: constant
                    rate: 10
                """)
            .orThrow();
    TopicWorkload events = w.topics().get(0);
    assertThat(events.stages()).isEqualTo(PROFILE);
    assertThat(events.rate()).isNull();
    assertThat(events.steps()).isNull();
    assertThat(events.writing()).isEqualTo(Duration.ofSeconds(85));
    assertThat(w.topics().get(1).stages()).isEmpty();
    assertThat(WorkloadCommands.summary(w, 1))
        .contains("events: 1 partitions, replication 1, 1 consumers, stages 0..200/10s");
  }

  @Test
  void aTopicsStagesContradictingRateStepsOrDurationAreLocated() {
    assertThat(
            problems(
                """
                topics:
                  - name: a
                    rate: 10
                    duration: 30s
                    stages: [{hold: 5, for: 10s}]
                  - name: b
                    steps: {start: 5, count: 2, duration: 5s}
                    stages: [{hold: 5, for: 10s}]
                """))
        .containsExactly(
            "s.yml:3:11 topics[0].rate: give stages or rate and duration, not both: stages state"
                + " the whole profile",
            "s.yml:4:15 topics[0].duration: give stages or rate and duration, not both: stages"
                + " state the whole profile",
            "s.yml:7:12 topics[1].steps: give stages or steps, not both: stages state the whole"
                + " profile");
  }

  @Test
  void aTopicsBrokenStageNamesItsPathInTheTopic() {
    assertThat(
            problems(
                """
                topics:
                  - name: a
                    stages:
                      - {ramp: 0..200, for: 10s}
                      - {hold: -1, for: 10s}
                  - name: b
                    stages: []
                """))
        .containsExactly(
            "s.yml:4:29 topics[0].stages[0].for: for goes with hold and spike",
            "s.yml:5:16 topics[0].stages[1].hold: a hold's rate must be >= 0 arrivals/s, got -1",
            "s.yml:7:13 topics[1].stages: stages needs at least one stage");
  }

  @Test
  void logsIngestStages() {
    Workload w =
        parse(
                """
                logs:
                  bulk_size: 100
                  stages:
                    - {ramp: 0..200, over: 10s}
                    - {hold: 200, for: 60s}
                    - {spike: 1000, for: 10s}
                    - {ramp: 50, over: 5s}
                """)
            .orThrow();
    LogIngest ingest = w.logs().orElseThrow().ingest();
    assertThat(ingest.mode()).isEqualTo(LogIngest.Mode.STAGES);
    assertThat(ingest.stages()).isEqualTo(PROFILE);
    // 100*10 + 200*60 + 1000*10 + 125*5 arrivals
    assertThat(ingest.plannedBulks(100)).isEqualTo(1000 + 12000 + 10000 + 625);
    assertThat(WorkloadCommands.summary(w, 1)).contains("ingest: stages 0..200/10s");
  }

  @Test
  void logsStagesContradictingTheOtherIngestsAreLocated() {
    assertThat(
            problems(
                """
                logs:
                  rate: 5
                  stages: [{hold: 5, for: 10s}]
                """))
        .containsExactly(
            "s.yml:3:11 logs.stages: give one of docs, rate, steps or stages, not rate and"
                + " stages");
    assertThat(
            problems(
                """
                logs:
                  stages: [{hold: 5, for: 10s}]
                  duration: 30s
                  step_duration: 5s
                """))
        .containsExactly(
            "s.yml:3:13 logs.duration: duration goes with rate",
            "s.yml:4:18 logs.step_duration: step_duration goes with steps");
    assertThat(
            problems(
                """
                logs:
                  stages: [{ramp: up, over: 10s}]
                """))
        .containsExactly(
            "s.yml:2:19 logs.stages[0].ramp: expected a rate such as 200 (from the rate before) or"
                + " a range such as 0..200, got the string \"up\"");
  }

  @Test
  void messagesWithoutStagesAreUnchanged() {
    assertThat(
            problems(
                """
                logs:
                  rate: 5
                  steps: [1, 2]
                """))
        .containsExactly(
            "s.yml:3:10 logs.steps: give one of docs, rate or steps, not rate and steps");
  }
}
