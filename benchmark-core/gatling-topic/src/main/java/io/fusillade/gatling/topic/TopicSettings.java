package io.fusillade.gatling.topic;

import io.fusillade.record.RunRecorder;
import io.fusillade.topic.TopicClient;
import io.fusillade.topic.TopicClientOptions;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * Everything the topic protocol was configured with: the value a {@link TopicProtocolBuilder}
 * wraps. Each {@code with...} returns a changed copy.
 *
 * @param options the client's options, or null until bootstrap servers are given
 * @param endHooks run when the load is over (see {@link TopicProtocolBuilder#onEnd})
 */
record TopicSettings(
    TopicClientOptions options, List<BiConsumer<TopicClient, RunRecorder>> endHooks) {

  static final TopicSettings DEFAULT = new TopicSettings(null, List.of());

  TopicSettings {
    endHooks = List.copyOf(endHooks);
  }

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
    return new TopicSettings(base, endHooks);
  }

  /** The options changed by {@code change}; they need bootstrap servers first. */
  TopicSettings withOptions(UnaryOperator<TopicClientOptions> change) {
    return new TopicSettings(change.apply(required()), endHooks);
  }

  TopicSettings withEndHook(BiConsumer<TopicClient, RunRecorder> hook) {
    required();
    List<BiConsumer<TopicClient, RunRecorder>> hooks = new java.util.ArrayList<>(endHooks);
    hooks.add(hook);
    return new TopicSettings(options, hooks);
  }

  TopicProtocol protocol() {
    return new TopicProtocol(required(), endHooks);
  }
}
