package io.fusillade.gatling.kafka;

import io.fusillade.topic.TopicSpec;
import io.gatling.core.protocol.Protocol;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;

/**
 * Configures the topic protocol. Immutable, in Gatling's style: it wraps one settings value and
 * every method returns a new builder around a changed copy.
 *
 * <pre>{@code
 * kafka.bootstrapServers(servers)
 *     .property("security.protocol", "SASL_SSL")          // producer, consumers and admin
 *     .property("sasl.jaas.config", System.getenv("JAAS"))
 *     .producer("linger.ms", "5").producer("batch.size", "65536")
 *     .consumer("fetch.min.bytes", "1")
 *     .topic(topic("events").partitions(8).replicationFactor(3).consumers(4))
 *     .drainTimeout(Duration.ofSeconds(10));
 * }</pre>
 *
 * <p>Every method but {@link #bootstrapServers} needs the servers first.
 */
public final class KafkaProtocolBuilder implements ProtocolBuilder {
  private final KafkaSettings settings;

  KafkaProtocolBuilder(KafkaSettings settings) {
    this.settings = settings;
  }

  /** What this builder holds (for tests). */
  KafkaSettings settings() {
    return settings;
  }

  /**
   * {@code host:port[,host:port...]} of the cluster.
   *
   * <p>Example: {@code kafka.bootstrapServers("broker1:9092,broker2:9092")}.
   */
  public KafkaProtocolBuilder bootstrapServers(String servers) {
    return new KafkaProtocolBuilder(settings.withBootstrapServers(servers));
  }

  /**
   * A client property for producer, consumers and admin alike (SASL, TLS, client.dns.lookup).
   *
   * <p>Example: {@code kafka.bootstrapServers(servers).property("security.protocol", "SASL_SSL")}.
   */
  public KafkaProtocolBuilder property(String key, String value) {
    return new KafkaProtocolBuilder(settings.withOptions(o -> o.withCommon(key, value)));
  }

  /**
   * A producer property ({@code acks}, {@code linger.ms}, {@code batch.size}...).
   *
   * <p>Example: {@code kafka.bootstrapServers(servers).producer("linger.ms", "5")}.
   */
  public KafkaProtocolBuilder producer(String key, String value) {
    return new KafkaProtocolBuilder(settings.withOptions(o -> o.withProducer(key, value)));
  }

  /**
   * A consumer property ({@code fetch.min.bytes}, {@code max.poll.records}...).
   *
   * <p>Example: {@code kafka.bootstrapServers(servers).consumer("max.poll.records", "500")}.
   */
  public KafkaProtocolBuilder consumer(String key, String value) {
    return new KafkaProtocolBuilder(settings.withOptions(o -> o.withConsumer(key, value)));
  }

  /**
   * Declares a topic: created or checked, and read by its consumers, before the load starts.
   *
   * <p>Example: {@code kafka.bootstrapServers(servers).topic(topic("events").consumers(4))}.
   */
  public KafkaProtocolBuilder topic(TopicBuilder topic) {
    return topic(topic.spec());
  }

  /**
   * Declares a topic from the client's settings, as a workload file's reader builds them; in code,
   * {@link #topic(TopicBuilder)}.
   *
   * <p>Example: {@code protocol.topic(TopicSpec.of("events").withPartitions(4))}.
   */
  public KafkaProtocolBuilder topic(TopicSpec topic) {
    return new KafkaProtocolBuilder(settings.withOptions(o -> o.withTopic(topic)));
  }

  /**
   * The seed of message contents and generated keys (default 1).
   *
   * <p>Example: {@code kafka.bootstrapServers(servers).seed(42)}.
   */
  public KafkaProtocolBuilder seed(long seed) {
    return new KafkaProtocolBuilder(settings.withOptions(o -> o.withSeed(seed)));
  }

  /**
   * How long consumers may keep reading after the load ends (default 10 s).
   *
   * <p>Example: {@code kafka.bootstrapServers(servers).drainTimeout(Duration.ofSeconds(30))}.
   */
  public KafkaProtocolBuilder drainTimeout(Duration timeout) {
    return new KafkaProtocolBuilder(settings.withOptions(o -> o.withDrainTimeout(timeout)));
  }

  /**
   * How long topic creation, metadata and partition assignment may take (default 60 s).
   *
   * <p>Example: {@code kafka.bootstrapServers(servers).readyTimeout(Duration.ofMinutes(2))}.
   */
  public KafkaProtocolBuilder readyTimeout(Duration timeout) {
    return new KafkaProtocolBuilder(settings.withOptions(o -> o.withReadyTimeout(timeout)));
  }

  @Override
  public Protocol protocol() {
    return settings.protocol();
  }
}
