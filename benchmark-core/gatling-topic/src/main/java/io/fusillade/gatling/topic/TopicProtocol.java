package io.fusillade.gatling.topic;

import io.fusillade.gatling.FusilladeProtocolKey;
import io.fusillade.topic.TopicClientOptions;
import io.gatling.core.protocol.Protocol;

/** The topic protocol as Gatling holds it: where the cluster is, which topics, which settings. */
public final class TopicProtocol implements Protocol {
  private final TopicClientOptions options;

  TopicProtocol(TopicClientOptions options) {
    this.options = options;
  }

  public TopicClientOptions options() {
    return options;
  }

  @Override
  public String toString() {
    return "TopicProtocol[" + options + "]";
  }

  /** Gatling's key for this protocol: one client (producer, consumers) per protocol and run. */
  public static final FusilladeProtocolKey<TopicProtocol, TopicComponents> KEY =
      new FusilladeProtocolKey<>(
          TopicProtocol.class,
          "No topic protocol is configured: add .protocols(TopicDsl.kafka.bootstrapServers(...))"
              + " to setUp(...)",
          TopicComponents::new);
}
