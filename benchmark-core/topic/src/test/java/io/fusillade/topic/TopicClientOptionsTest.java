package io.fusillade.topic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The consumers' defaults, and where a user's setting or protocol overrides them. */
class TopicClientOptionsTest {

  @Test
  void consumersGiveUpOnAStoppedMemberAfterTenSecondsUnlessTold() {
    TopicClientOptions options = TopicClientOptions.of("127.0.0.1:9092");
    assertThat(options.consumerProperties())
        .containsEntry("session.timeout.ms", "10000")
        .containsEntry("bootstrap.servers", "127.0.0.1:9092");
    assertThat(options.withConsumer("session.timeout.ms", "30000").consumerProperties())
        .containsEntry("session.timeout.ms", "30000");
  }

  @Test
  void theNewGroupProtocolGetsNoSessionTimeoutItWouldRefuse() {
    TopicClientOptions options =
        TopicClientOptions.of("127.0.0.1:9092").withConsumer("group.protocol", "consumer");
    assertThat(options.consumerProperties()).doesNotContainKey("session.timeout.ms");
    // said by the user: kept, and the client names the mistake
    assertThat(options.withConsumer("session.timeout.ms", "30000").consumerProperties())
        .containsEntry("session.timeout.ms", "30000");
  }
}
