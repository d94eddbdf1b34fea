package io.fusillade.gatling.topic;

import io.fusillade.topic.TopicClientOptions;
import java.util.function.UnaryOperator;

/**
 * Everything the topic protocol was configured with: the value a {@link TopicProtocolBuilder}
 * wraps. Each {@code with...} returns a changed copy.
 *
 * @param options the client's options, or null until bootstrap servers are given
 */
record TopicSettings(TopicClientOptions options) {

  static final TopicSettings DEFAULT = new TopicSettings(null);

  /** The client's options; they need bootstrap servers first. */
  TopicClientOptions required() {
    if (options == null) {
      throw new IllegalStateException(
          "The topic protocol needs bootstrap servers first: kafka.bootstrapServers(\"host:9092\")");
    }
    return options;
  }

  /** The servers, keeping whatever else was set. */
  TopicSettings withBootstrapServers(String servers) {
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
              options.readyTimeout());
    }
    return new TopicSettings(base);
  }

  /** The options changed by {@code change}; they need bootstrap servers first. */
  TopicSettings withOptions(UnaryOperator<TopicClientOptions> change) {
    return new TopicSettings(change.apply(required()));
  }

  TopicProtocol protocol() {
    return new TopicProtocol(required());
  }
}
