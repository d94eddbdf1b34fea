package io.fusillade.gatling.kafka;

import io.fusillade.topic.TopicClientOptions;
import java.util.function.UnaryOperator;

/**
 * Everything the topic protocol was configured with: the value a {@link KafkaProtocolBuilder}
 * wraps. Each {@code with...} returns a changed copy.
 *
 * @param options the client's options, or null until bootstrap servers are given
 */
record KafkaSettings(TopicClientOptions options) {

  static final KafkaSettings DEFAULT = new KafkaSettings(null);

  /** The client's options; they need bootstrap servers first. */
  TopicClientOptions required() {
    if (options == null) {
      throw new IllegalStateException(
          "The topic protocol needs bootstrap servers first: kafka.bootstrapServers(\"host:9092\")");
    }
    return options;
  }

  /** The servers, keeping whatever else was set. */
  KafkaSettings withBootstrapServers(String servers) {
    TopicClientOptions base = TopicClientOptions.of(servers);
    if (options != null) {
      base =
          new TopicClientOptions(
              servers,
              options.common(),
              options.producer(),
              options.consumer(),
              options.topics(),
              options.seed(),
              options.drainTimeout(),
              options.readyTimeout(),
              options.share());
    }
    return new KafkaSettings(base);
  }

  /** The options changed by {@code change}; they need bootstrap servers first. */
  KafkaSettings withOptions(UnaryOperator<TopicClientOptions> change) {
    return new KafkaSettings(change.apply(required()));
  }

  KafkaProtocol protocol() {
    return new KafkaProtocol(required());
  }
}
