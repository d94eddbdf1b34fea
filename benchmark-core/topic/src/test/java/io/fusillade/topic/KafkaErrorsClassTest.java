package io.fusillade.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.FailureClass;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.BufferExhaustedException;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** The topic client's KO reasons name who failed (see {@link FailureClass}). */
class KafkaErrorsClassTest {

  private static FailureClass classOf(Throwable error) {
    return FailureClass.of(KafkaErrors.reason(new ExecutionException(error)));
  }

  @Test
  void aFullProducerBufferIsTheInjectors() {
    assertThat(classOf(new BufferExhaustedException("Failed to allocate 100 bytes")))
        .isEqualTo(FailureClass.INJECTOR);
  }

  @Test
  void timeoutsAndLostConnectionsAreTheNetworks() {
    assertThat(classOf(new TimeoutException("Expiring 3 record(s) for t-0: 120001 ms has passed")))
        .isEqualTo(FailureClass.NETWORK);
    TimeoutException metadata =
        new TimeoutException("Topic t not present in metadata after 60 ms.");
    assertThat(KafkaErrors.reason(metadata))
        .isEqualTo(
            "metadata timeout: topic leader unknown within max.block.ms (broker unreachable)");
    assertThat(classOf(metadata)).isEqualTo(FailureClass.NETWORK);
    assertThat(classOf(new NetworkException("Disconnected from node 1")))
        .isEqualTo(FailureClass.NETWORK);
  }

  @Test
  void aSendFailedWhileEveryBrokerIsDownNamesTheBrokerWithItsNumbers() {
    String reason =
        KafkaErrors.reason(new KafkaErrors.NodeDown("connection refused: 10.0.0.7:9092"));
    assertThat(reason).isEqualTo("connection refused: 10.0.0.7:9092");
    assertThat(FailureClass.of(reason)).isEqualTo(FailureClass.NETWORK);
  }

  @Test
  void theWatchedEndpointsAreTheBootstrapListsHostsAndPorts() {
    assertThat(BrokerWatch.endpoints(" a:9092, SASL_SSL://b:9093,,[::1]:9094 "))
        .containsExactly("a:9092", "b:9093", "[::1]:9094");
  }

  @Test
  void onceTheBrokersDiskFilledItsTimeoutsAndLostConnectionsAreThatServerFailure() {
    String full =
        "broker 0's disk is full: Error while appending records to t-0: No space left on device";
    try {
      KafkaErrors.serverFailed(full);
      KafkaErrors.serverFailed("broker 2's disk is full: later"); // the first cause stays
      String timeout =
          KafkaErrors.reason(new ExecutionException(new TimeoutException("Expiring 3 record(s)")));
      assertThat(timeout).isEqualTo("server: " + full);
      assertThat(FailureClass.of(timeout)).isEqualTo(FailureClass.SERVER);
      assertThat(KafkaErrors.reason(new KafkaErrors.NodeDown("connection refused: 1.2.3.4:9092")))
          .isEqualTo("server: " + full);
      assertThat(classOf(new BufferExhaustedException("Failed to allocate 100 bytes")))
          .as("the injector's own failures stay its own")
          .isEqualTo(FailureClass.INJECTOR);
      assertThat(KafkaErrors.reason(new RecordTooLargeException("The message is 2 bytes")))
          .as("the broker's other answers stay theirs")
          .startsWith("RecordTooLargeException");
    } finally {
      KafkaErrors.serverFailed(null);
    }
    assertThat(classOf(new TimeoutException("Expiring 3 record(s)")))
        .isEqualTo(FailureClass.NETWORK);
  }

  @Test
  void brokerErrorsAreTheServers() {
    assertThat(classOf(new NotLeaderOrFollowerException("not the leader")))
        .isEqualTo(FailureClass.SERVER);
    assertThat(classOf(new RecordTooLargeException("The message is 2000000 bytes")))
        .isEqualTo(FailureClass.SERVER);
  }
}
