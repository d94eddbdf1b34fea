package io.fusillade.scenarios.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunSettings.Stage;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadLoader;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@link TopicWorkloadSimulation} records and waits for when topics have stages (without
 * running Kafka: the run is {@code TopicSimulationsTest}'s).
 */
class TopicStagesTest {

  private static Workload workload(String yaml) {
    return WorkloadLoader.parse("t.yml", yaml, name -> null).orThrow();
  }

  @Test
  void theOneProfileOfEveryTopicIsRecorded() {
    Workload w =
        workload(
            """
            topics:
              - {name: a, stages: [{ramp: 0..20, over: 2s}, {hold: 20, for: 3s}]}
              - {name: b, stages: [{ramp: 0..20, over: 2s}, {hold: 20, for: 3s}]}
            """);
    assertThat(TopicWorkloadSimulation.recordedStages(w))
        .containsExactly(
            new Stage(0, 20, Duration.ofSeconds(2)), new Stage(20, 20, Duration.ofSeconds(3)));
    assertThat(TopicWorkloadSimulation.longest(w)).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void differentProfilesRecordNoneRatherThanAWrongOne() {
    Workload w =
        workload(
            """
            topics:
              - {name: a, stages: [{hold: 20, for: 3s}]}
              - {name: b, rate: 5, duration: 30s}
            """);
    assertThat(TopicWorkloadSimulation.recordedStages(w)).isEqualTo(List.of());
    assertThat(TopicWorkloadSimulation.longest(w)).isEqualTo(Duration.ofSeconds(30));
  }
}
