package io.fusillade.gatling.topic;

import io.fusillade.gatling.FusilladeProtocolKey;
import io.fusillade.record.RunRecorder;
import io.fusillade.topic.TopicClient;
import io.fusillade.topic.TopicClientOptions;
import io.gatling.core.protocol.Protocol;
import java.util.List;
import java.util.function.BiConsumer;

/** The topic protocol as Gatling holds it: where the cluster is, which topics, which settings. */
public final class TopicProtocol implements Protocol {
  private final TopicClientOptions options;
  private final List<BiConsumer<TopicClient, RunRecorder>> endHooks;

  TopicProtocol(TopicClientOptions options, List<BiConsumer<TopicClient, RunRecorder>> endHooks) {
    this.options = options;
    this.endHooks = List.copyOf(endHooks);
  }

  public TopicClientOptions options() {
    return options;
  }

  List<BiConsumer<TopicClient, RunRecorder>> endHooks() {
    return endHooks;
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
