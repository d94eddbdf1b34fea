package io.fusillade.gatling.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.spi.FilterReply;
import io.fusillade.cli.InjectedClientWarnings;
import io.fusillade.workload.InjectedFault;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The writes that fail on purpose: their topics, sizes and producers. */
class TopicFaultsTest {
  @Test
  void everyKindAWorkloadMayNameHasItsWrite() {
    assertThat(InjectedFault.TOPIC_KINDS).containsExactlyElementsOf(TopicFaults.KINDS);
    assertThatThrownBy(() -> KafkaDsl.injected("oversize", "t"))
        .hasMessageContaining("no injected kind \"oversize\": one of oversized message,");
  }

  @Test
  void eachKindWritesWhereAndWhatMakesItFail() {
    assertThat(TopicFaults.topic(TopicFaults.MISSING_TOPIC, "orders"))
        .isEqualTo("fusillade-missing-orders");
    assertThat(TopicFaults.topic(TopicFaults.OVERSIZED_MESSAGE, "orders")).isEqualTo("orders");
    // above the brokers' default message.max.bytes (1,048,588)
    assertThat(TopicFaults.size(TopicFaults.OVERSIZED_MESSAGE)).isGreaterThan(1_048_588);
    assertThat(TopicFaults.size(TopicFaults.WRONG_SETTING))
        .isGreaterThan(TopicFaults.WRONG_MAX_REQUEST_SIZE);
    // the producers are made without a broker: nothing connects before the first write
    Map<String, Object> protocol =
        Map.of("bootstrap.servers", "127.0.0.1:1", "transactional.id", "t", "acks", "all");
    for (String kind : TopicFaults.KINDS) {
      TopicFaults.producer(kind, protocol).close();
    }
  }

  @Test
  void theMissingTopicProducersWarningsStayOffTheConsole() {
    InjectedClientWarnings filter = new InjectedClientWarnings();
    var logger = new LoggerContext().getLogger("org.apache.kafka.clients.NetworkClient");
    String missing =
        "[Producer clientId=fusillade-injected-missing-topic] The metadata response from the"
            + " cluster reported a recoverable issue";
    String other = "[Producer clientId=producer-1] Connection to node 1 could not be established";
    assertThat(filter.decide(new LoggingEvent("", logger, Level.WARN, missing, null, null)))
        .isEqualTo(FilterReply.DENY);
    assertThat(filter.decide(new LoggingEvent("", logger, Level.WARN, other, null, null)))
        .isEqualTo(FilterReply.NEUTRAL);
  }
}
