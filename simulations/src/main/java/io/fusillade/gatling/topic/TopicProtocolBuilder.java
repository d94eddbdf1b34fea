package io.fusillade.gatling.topic;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.record.RunRecorder;
import io.fusillade.topic.TopicClient;
import io.fusillade.topic.TopicClientOptions;
import io.fusillade.topic.TopicSpec;
import io.gatling.core.protocol.Protocol;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Configures the topic protocol. Immutable: every method returns a new builder.
 *
 * <pre>{@code
 * kafka.bootstrapServers(servers)
 *     .property("security.protocol", "SASL_SSL")          // producer, consumers and admin
 *     .property("sasl.jaas.config", System.getenv("JAAS"))
 *     .producer("linger.ms", "5").producer("batch.size", "65536")
 *     .consumer("fetch.min.bytes", "1")
 *     .topic(topic("events").withPartitions(8).withReplicationFactor(3).withConsumers(4))
 *     .drainTimeout(Duration.ofSeconds(10));
 * }</pre>
 */
public final class TopicProtocolBuilder implements ProtocolBuilder {
  private final TopicClientOptions options; // null until bootstrap servers are given
  private final List<BiConsumer<TopicClient, RunRecorder>> endHooks;

  TopicProtocolBuilder(
      TopicClientOptions options, List<BiConsumer<TopicClient, RunRecorder>> endHooks) {
    this.options = options;
    this.endHooks = List.copyOf(endHooks);
  }

  private TopicClientOptions options() {
    if (options == null) {
      throw new IllegalStateException(
          "The topic protocol needs bootstrap servers first: kafka.bootstrapServers(\"host:9092\")");
    }
    return options;
  }

  private TopicProtocolBuilder with(TopicClientOptions changed) {
    return new TopicProtocolBuilder(changed, endHooks);
  }

  /** {@code host:port[,host:port...]} of the cluster. */
  public TopicProtocolBuilder bootstrapServers(String servers) {
    FusilladeRun.noteSimulation();
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
    return with(base);
  }

  /** A client property for producer, consumers and admin alike (SASL, TLS, client.dns.lookup). */
  public TopicProtocolBuilder property(String key, String value) {
    return with(options().withCommon(key, value));
  }

  /** A producer property ({@code acks}, {@code linger.ms}, {@code batch.size}...). */
  public TopicProtocolBuilder producer(String key, String value) {
    return with(options().withProducer(key, value));
  }

  /** A consumer property ({@code fetch.min.bytes}, {@code max.poll.records}...). */
  public TopicProtocolBuilder consumer(String key, String value) {
    return with(options().withConsumer(key, value));
  }

  /** Declares a topic: created or checked, and read by its consumers, before the load starts. */
  public TopicProtocolBuilder topic(TopicSpec topic) {
    return with(options().withTopic(topic));
  }

  /** The seed of message contents and generated keys (default 1). */
  public TopicProtocolBuilder seed(long seed) {
    return with(options().withSeed(seed));
  }

  /** How long consumers may keep reading after the load ends (default 10 s). */
  public TopicProtocolBuilder drainTimeout(Duration timeout) {
    return with(options().withDrainTimeout(timeout));
  }

  /** How long topic creation, metadata and partition assignment may take (default 60 s). */
  public TopicProtocolBuilder readyTimeout(Duration timeout) {
    return with(options().withReadyTimeout(timeout));
  }

  /**
   * Runs {@code hook} when the load is over and the consumers have drained, before the run record
   * closes: the place to judge steps of a run ({@link TopicSteps}).
   */
  public TopicProtocolBuilder onEnd(BiConsumer<TopicClient, RunRecorder> hook) {
    List<BiConsumer<TopicClient, RunRecorder>> hooks = new ArrayList<>(endHooks);
    hooks.add(hook);
    return new TopicProtocolBuilder(options(), hooks);
  }

  @Override
  public Protocol protocol() {
    return new TopicProtocol(options(), endHooks);
  }
}
