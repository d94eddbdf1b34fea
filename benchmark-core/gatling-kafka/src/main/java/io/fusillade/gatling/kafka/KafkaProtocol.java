package io.fusillade.gatling.kafka;

import io.fusillade.gatling.FusilladeProtocolKey;
import io.fusillade.topic.TopicClientOptions;
import io.gatling.core.protocol.Protocol;

/** The topic protocol as Gatling holds it: where the cluster is, which topics, which settings. */
public final class KafkaProtocol implements Protocol {
  private final TopicClientOptions options;

  KafkaProtocol(TopicClientOptions options) {
    this.options = options;
  }

  public TopicClientOptions options() {
    return options;
  }

  @Override
  public String toString() {
    return "KafkaProtocol[" + options + "]";
  }

  /** Gatling's key for this protocol: one client (producer, consumers) per protocol and run. */
  public static final FusilladeProtocolKey<KafkaProtocol, KafkaComponents> KEY =
      new FusilladeProtocolKey<>(
          KafkaProtocol.class,
          "No topic protocol is configured: add .protocols(KafkaDsl.kafka.bootstrapServers(...))"
              + " to setUp(...)",
          KafkaComponents::new);
}
