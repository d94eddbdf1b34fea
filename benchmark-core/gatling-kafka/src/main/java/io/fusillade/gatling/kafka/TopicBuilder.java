package io.fusillade.gatling.kafka;

import io.fusillade.topic.TopicSink;
import io.fusillade.topic.TopicSpec;
import java.time.Duration;

/**
 * A topic to declare on the protocol ({@link KafkaProtocolBuilder#topic(TopicBuilder)}): created
 * when missing or checked, and read by its consumers, before the load starts. Immutable, in
 * Gatling's style: bare fluent names, each returning a changed copy.
 *
 * <p>Example: {@code topic("events").partitions(4).replicationFactor(3).consumers(4)}.
 */
public final class TopicBuilder {
  private final TopicSpec spec;

  TopicBuilder(TopicSpec spec) {
    this.spec = spec;
  }

  /** The client's topic settings this builder holds. */
  TopicSpec spec() {
    return spec;
  }

  /**
   * The partitions it is created with (default 1).
   *
   * <p>Example: {@code topic("events").partitions(4)}.
   */
  public TopicBuilder partitions(int count) {
    return new TopicBuilder(spec.withPartitions(count));
  }

  /**
   * The replicas of each partition it is created with (default 1).
   *
   * <p>Example: {@code topic("events").replicationFactor(3)}.
   */
  public TopicBuilder replicationFactor(int replicas) {
    return new TopicBuilder(spec.withReplicationFactor(replicas));
  }

  /**
   * A topic config it is created with.
   *
   * <p>Example: {@code topic("events").config("min.insync.replicas", "2")}.
   */
  public TopicBuilder config(String key, String value) {
    return new TopicBuilder(spec.withConfig(key, value));
  }

  /**
   * Whether it is created when missing (default true); false: it must exist.
   *
   * <p>Example: {@code topic("orders").create(false)}.
   */
  public TopicBuilder create(boolean createWhenMissing) {
    return new TopicBuilder(spec.withCreate(createWhenMissing));
  }

  /**
   * The consumers of its group, each on its own thread, reading for the whole run (default none):
   * end-to-end latency, lag and delivery are measured on what they read.
   *
   * <p>Example: {@code topic("events").consumers(4)}.
   */
  public TopicBuilder consumers(int count) {
    return new TopicBuilder(spec.withConsumers(count));
  }

  /**
   * The writers ("streams", default 0: the run's one producer, a stream per Gatling thread): {@code
   * count} Kafka producers of the topic's own, taking its sends in turn, so each writes its share
   * of the rate; the delivery verdict is per producer and partition (run.json's {@code streams}).
   *
   * <p>Example: {@code topic("events").partitions(10).producers(10)}.
   *
   * @param count 1 to {@value io.fusillade.topic.TopicSpec#MAX_PRODUCERS}, or 0
   */
  public TopicBuilder producers(int count) {
    return new TopicBuilder(spec.withProducers(count));
  }

  /**
   * The consumers' group id (default: one made for the run).
   *
   * <p>Example: {@code topic("events").consumers(2).group("billing")}.
   */
  public TopicBuilder group(String groupId) {
    return new TopicBuilder(spec.withGroup(groupId));
  }

  /**
   * Time each consumer spends per message, as a slow reader would.
   *
   * <p>Example: {@code topic("slow").consumers(1).processingTime(Duration.ofMillis(2))}.
   */
  public TopicBuilder processingTime(Duration perMessage) {
    return new TopicBuilder(spec.withProcessingTime(perMessage));
  }

  /**
   * The consumers write what they read into {@code sink}, exactly once ({@link TopicSink}).
   *
   * <p>Example: {@code topic("orders").consumers(2).sink(tableSink)}.
   */
  public TopicBuilder sink(TopicSink sink) {
    return new TopicBuilder(spec.withSink(sink));
  }

  @Override
  public String toString() {
    return spec.toString();
  }
}
