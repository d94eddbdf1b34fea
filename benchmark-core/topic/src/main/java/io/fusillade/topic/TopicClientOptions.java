package io.fusillade.topic;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the topics are and how to talk to them.
 *
 * @param bootstrapServers {@code host:port[,host:port...]}
 * @param common client properties for producer, consumers and admin alike (SASL, TLS)
 * @param producer producer properties, over {@link #PRODUCER_DEFAULTS}
 * @param consumer consumer properties, over {@link #CONSUMER_DEFAULTS}
 * @param topics the declared topics
 * @param seed the seed of payload contents
 * @param drainTimeout how long consumers may keep reading after the last send
 * @param readyTimeout how long topic creation, metadata and partition assignment may take
 * @param share this injector's part of a test of several ({@link TopicShare#ALONE}: alone)
 */
public record TopicClientOptions(
    String bootstrapServers,
    Map<String, String> common,
    Map<String, String> producer,
    Map<String, String> consumer,
    List<TopicSpec> topics,
    long seed,
    Duration drainTimeout,
    Duration readyTimeout,
    TopicShare share) {

  /**
   * Producer defaults: the YDB Topics rules (acks from all replicas, no compression, idempotence)
   * and settings that keep a load generator honest: {@code max.block.ms=0}, so that a full buffer
   * or missing metadata fails the send at once instead of stalling the sending thread.
   *
   * <p>{@code delivery.timeout.ms} 30 s (Kafka's is 120 s): longer than a partition leader's
   * fail-over, so that the loss of one broker of a replicated topic shows as writes that waited,
   * not as failed ones. A killed leader is replaced when the controller fences it, after {@code
   * broker.session.timeout.ms} (9 s by default), and the producer sees the new leader at its next
   * metadata refresh: writes to its partitions stalled 9 to 12 s on the embedded cluster, and with
   * the 10 s of earlier versions a kill failed hundreds of them in one run (477, 12.7%) and none in
   * the next. A third of a minute is still short enough that a cluster that is really gone gives
   * failures within the run; when every bootstrap broker refuses connections, sends fail at once
   * anyway ({@link BrokerWatch}). {@code request.timeout.ms} 5 s (Kafka's is 30 s): a request a
   * frozen broker never answers is sent again, to the new leader once there is one, within the
   * delivery timeout. Retries are Kafka's (unbounded, within the delivery timeout).
   */
  public static final Map<String, String> PRODUCER_DEFAULTS =
      Map.of(
          "acks", "all",
          "compression.type", "none",
          "enable.idempotence", "true",
          "max.block.ms", "0",
          "request.timeout.ms", "5000",
          "delivery.timeout.ms", "30000");

  /**
   * Consumer defaults. Positions are taken when partitions are assigned, before any send.
   *
   * <p>{@code session.timeout.ms} 10 s, not the client's 45 s: a consumer stopped while its group's
   * coordinator is down (a broker killed by a fault) cannot say it leaves, and the group's next
   * rebalance waits for it until its session expires. With 45 s, that outlasted the 30 s drain and
   * a run whose every message was in the topic failed {@code delivery exact} (messages "lost");
   * with 10 s the group goes on within about 20 s of the broker's loss (9 s for the controller to
   * fence it, then the stale member's session).
   */
  public static final Map<String, String> CONSUMER_DEFAULTS =
      Map.of(
          "auto.offset.reset", "latest",
          "enable.auto.commit", "true",
          "session.timeout.ms", "10000");

  /** Copies. */
  public TopicClientOptions {
    if (bootstrapServers == null || bootstrapServers.isBlank()) {
      throw new IllegalArgumentException("the topic protocol needs bootstrap servers");
    }
    common = copy(common);
    producer = copy(producer);
    consumer = copy(consumer);
    topics = List.copyOf(topics);
    drainTimeout = drainTimeout == null ? Duration.ofSeconds(10) : drainTimeout;
    readyTimeout = readyTimeout == null ? Duration.ofSeconds(60) : readyTimeout;
    share = share == null ? TopicShare.ALONE : share;
  }

  /** Options with the defaults and no declared topic. */
  public static TopicClientOptions of(String bootstrapServers) {
    return new TopicClientOptions(
        bootstrapServers, Map.of(), Map.of(), Map.of(), List.of(), 1, null, null, null);
  }

  public TopicClientOptions withTopic(TopicSpec topic) {
    List<TopicSpec> list = new java.util.ArrayList<>(topics);
    list.removeIf(t -> t.name().equals(topic.name()));
    list.add(topic);
    return new TopicClientOptions(
        bootstrapServers,
        common,
        producer,
        consumer,
        list,
        seed,
        drainTimeout,
        readyTimeout,
        share);
  }

  public TopicClientOptions withProducer(String key, String value) {
    Map<String, String> m = new LinkedHashMap<>(producer);
    m.put(key, value);
    return new TopicClientOptions(
        bootstrapServers, common, m, consumer, topics, seed, drainTimeout, readyTimeout, share);
  }

  public TopicClientOptions withConsumer(String key, String value) {
    Map<String, String> m = new LinkedHashMap<>(consumer);
    m.put(key, value);
    return new TopicClientOptions(
        bootstrapServers, common, producer, m, topics, seed, drainTimeout, readyTimeout, share);
  }

  public TopicClientOptions withCommon(String key, String value) {
    Map<String, String> m = new LinkedHashMap<>(common);
    m.put(key, value);
    return new TopicClientOptions(
        bootstrapServers, m, producer, consumer, topics, seed, drainTimeout, readyTimeout, share);
  }

  /** This injector's part of a test that several run together. */
  public TopicClientOptions withShare(TopicShare value) {
    return new TopicClientOptions(
        bootstrapServers,
        common,
        producer,
        consumer,
        topics,
        seed,
        drainTimeout,
        readyTimeout,
        value);
  }

  public TopicClientOptions withSeed(long value) {
    return new TopicClientOptions(
        bootstrapServers,
        common,
        producer,
        consumer,
        topics,
        value,
        drainTimeout,
        readyTimeout,
        share);
  }

  public TopicClientOptions withDrainTimeout(Duration timeout) {
    return new TopicClientOptions(
        bootstrapServers, common, producer, consumer, topics, seed, timeout, readyTimeout, share);
  }

  public TopicClientOptions withReadyTimeout(Duration timeout) {
    return new TopicClientOptions(
        bootstrapServers, common, producer, consumer, topics, seed, drainTimeout, timeout, share);
  }

  /** The producer's effective properties. */
  public Map<String, Object> producerProperties() {
    Map<String, Object> m = new LinkedHashMap<>(PRODUCER_DEFAULTS);
    m.putAll(common);
    m.putAll(producer);
    m.put("bootstrap.servers", bootstrapServers);
    return m;
  }

  /** A consumer's effective properties. */
  public Map<String, Object> consumerProperties() {
    Map<String, Object> m = new LinkedHashMap<>(CONSUMER_DEFAULTS);
    m.putAll(common);
    m.putAll(consumer);
    if ("consumer".equalsIgnoreCase(String.valueOf(m.get("group.protocol")))
        && !common.containsKey("session.timeout.ms")
        && !consumer.containsKey("session.timeout.ms")) {
      // the new group protocol refuses the setting: its session is the broker's to set
      m.remove("session.timeout.ms");
    }
    m.put("bootstrap.servers", bootstrapServers);
    return m;
  }

  /** The admin client's properties. */
  public Map<String, Object> adminProperties() {
    Map<String, Object> m = new LinkedHashMap<>(common);
    m.put("bootstrap.servers", bootstrapServers);
    return m;
  }

  /** For logs and run.json: no property values, which may hold secrets. */
  @Override
  public String toString() {
    return "TopicClientOptions[bootstrap="
        + bootstrapServers
        + ", topics="
        + topics.stream().map(TopicSpec::name).toList()
        + ", producer keys="
        + producer.keySet()
        + ", consumer keys="
        + consumer.keySet()
        + ", common keys="
        + common.keySet()
        + "]";
  }

  private static Map<String, String> copy(Map<String, String> m) {
    return Collections.unmodifiableMap(new LinkedHashMap<>(m == null ? Map.of() : m));
  }
}
