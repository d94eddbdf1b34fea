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
  void injectorsSendTheirWritersShareSoThatEveryWriterSendsTheSameRate() {
    Workload w =
        workload(
            """
            topics:
              - {name: a, producers: 7, rate: 700, duration: 5s}
              - {name: b, stages: [{ramp: 0..30, over: 2s}]}
            """);
    // 7 writers over 3 injectors: 0, 3, 6 | 1, 4 | 2, 5, each writer 100/s
    double[] rates = new double[3];
    for (int i = 0; i < 3; i++) {
      rates[i] =
          TopicWorkloadSimulation.rateShare(
              700, w.topics().get(0), new io.fusillade.gatling.InjectorShare(3, i, null));
    }
    assertThat(rates).containsExactly(300, 200, 200);
    // without producers: a third each, stage by stage
    assertThat(
            TopicWorkloadSimulation.shareOf(
                w.topics().get(1).stages(),
                w.topics().get(1),
                new io.fusillade.gatling.InjectorShare(3, 2, null)))
        .containsExactly(new Stage(0, 10, Duration.ofSeconds(2)));
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
