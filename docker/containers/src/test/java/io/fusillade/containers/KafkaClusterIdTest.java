package io.fusillade.containers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The cluster id every broker of a container cluster formats its storage with. It is handed to
 * {@code kafka-storage format --cluster-id}, whose parser takes an id starting with "-" for an
 * option: one random id in 64 did, and the cluster failed to start in CI.
 */
class KafkaClusterIdTest {
  @Test
  void isSixteenRandomBytesThatNeverStartWithADash() {
    Set<String> ids = new HashSet<>();
    // Without the redraw, 20,000 ids all avoid a leading "-" with probability (63/64)^20000.
    for (int i = 0; i < 20_000; i++) {
      String id = ContainerKafka.Builder.clusterId();
      assertThat(id).doesNotStartWith("-").hasSize(22);
      assertThat(Base64.getUrlDecoder().decode(id)).hasSize(16);
      ids.add(id);
    }
    assertThat(ids).hasSize(20_000);
  }
}
