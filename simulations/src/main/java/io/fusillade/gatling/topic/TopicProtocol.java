package io.fusillade.gatling.topic;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.record.RunRecorder;
import io.fusillade.topic.TopicClient;
import io.fusillade.topic.TopicClientOptions;
import io.gatling.core.CoreComponents;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.protocol.Protocol;
import io.gatling.core.protocol.ProtocolKey;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import scala.Function1;

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
  public static final ProtocolKey<TopicProtocol, TopicComponents> KEY =
      new ProtocolKey<>() {
        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public Class<Protocol> protocolClass() {
          return (Class) TopicProtocol.class;
        }

        @Override
        public TopicProtocol defaultProtocolValue(GatlingConfiguration configuration) {
          throw new IllegalStateException(
              "No topic protocol is configured: add .protocols(TopicDsl.kafka.bootstrapServers(...))"
                  + " to setUp(...)");
        }

        @Override
        public Function1<TopicProtocol, TopicComponents> newComponents(CoreComponents core) {
          // Called once per run; the function it returns, once per scenario: share by protocol.
          Map<TopicProtocol, TopicComponents> components = new ConcurrentHashMap<>();
          return protocol ->
              components.computeIfAbsent(
                  protocol,
                  p -> {
                    TopicComponents created =
                        new TopicComponents(p, core, FusilladeRun.recorder(core));
                    FusilladeRun.closeAtEnd(created);
                    return created;
                  });
        }
      };
}
