package io.fusillade.scenarios.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.workload.TopicWorkload;
import io.fusillade.workload.WorkloadLoader;
import org.junit.jupiter.api.Test;

/** How a workload's topic is created: its replication's {@code min.insync.replicas}. */
class TopicSpecOfWorkloadTest {

  private static TopicWorkload topic(String yaml) {
    return WorkloadLoader.parse("t.yml", "topics: [" + yaml + "]", n -> null)
        .orThrow()
        .topics()
        .get(0);
  }

  @Test
  void aTopicReplicatedThreeTimesKeepsEachWriteOnTwoBrokersUnlessItsConfigsSay() {
    assertThat(TopicWorkloadSimulation.spec(topic("{name: a, rate: 1, replication: 3}")).configs())
        .containsEntry("min.insync.replicas", "2");
    assertThat(
            TopicWorkloadSimulation.spec(
                    topic(
                        "{name: a, rate: 1, replication: 3,"
                            + " configs: {min.insync.replicas: 3, retention.ms: 1000}}"))
                .configs())
        .containsEntry("min.insync.replicas", "3")
        .containsEntry("retention.ms", "1000");
    assertThat(TopicWorkloadSimulation.spec(topic("{name: a, rate: 1, replication: 1}")).configs())
        .doesNotContainKey("min.insync.replicas");
  }
}
