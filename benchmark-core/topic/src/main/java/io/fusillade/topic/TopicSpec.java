package io.fusillade.topic;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One topic of a run: how to create it when missing, and the consumer group that reads it for the
 * whole run.
 *
 * @param name the topic
 * @param partitions partitions when it is created (an existing topic keeps its own)
 * @param replicationFactor replicas when it is created
 * @param configs topic configs when it is created ({@code retention.ms}, {@code
 *     min.insync.replicas}...)
 * @param create whether to create it when missing; if false a missing topic is an error
 * @param consumers consumers in the group (0: nobody reads; no end-to-end latency, no verification)
 * @param group the consumer group id, or null for {@code fusillade-<topic>-<random>}
 * @param processingTime time each consumer spends per message (0: none); to make readers slow on
 *     purpose
 * @param sink where the consumers write what they read, exactly once (a table), or null
 * @param producers the writers ("streams"), each a Kafka producer of its own with its own sequence
 *     numbers, taking the topic's sends in turn (so each writes its share of the rate); 0: the
 *     run's one producer, a stream per sending thread
 */
public record TopicSpec(
    String name,
    int partitions,
    short replicationFactor,
    Map<String, String> configs,
    boolean create,
    int consumers,
    String group,
    Duration processingTime,
    TopicSink sink,
    int producers) {

  /** The most writers a topic may have: each is a Kafka producer with its buffer and I/O thread. */
  public static final int MAX_PRODUCERS = 256;

  /** Checks and copies. */
  public TopicSpec {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a topic needs a name");
    }
    if (partitions < 1) {
      throw new IllegalArgumentException("topic " + name + ": partitions must be >= 1");
    }
    if (replicationFactor < 1) {
      throw new IllegalArgumentException("topic " + name + ": replication factor must be >= 1");
    }
    if (consumers < 0) {
      throw new IllegalArgumentException("topic " + name + ": consumers must be >= 0");
    }
    if (producers < 0 || producers > MAX_PRODUCERS) {
      throw new IllegalArgumentException(
          "topic " + name + ": producers must be between 0 and " + MAX_PRODUCERS);
    }
    configs = Collections.unmodifiableMap(new LinkedHashMap<>(configs));
    processingTime = processingTime == null ? Duration.ZERO : processingTime;
  }

  /** A topic created with 1 partition and 1 replica when missing, and no consumers. */
  public static TopicSpec of(String name) {
    return new TopicSpec(name, 1, (short) 1, Map.of(), true, 0, null, Duration.ZERO, null, 0);
  }

  public TopicSpec withPartitions(int count) {
    return new TopicSpec(
        name,
        count,
        replicationFactor,
        configs,
        create,
        consumers,
        group,
        processingTime,
        sink,
        producers);
  }

  public TopicSpec withReplicationFactor(int replicas) {
    return new TopicSpec(
        name,
        partitions,
        (short) replicas,
        configs,
        create,
        consumers,
        group,
        processingTime,
        sink,
        producers);
  }

  public TopicSpec withConfig(String key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(configs);
    copy.put(key, value);
    return new TopicSpec(
        name,
        partitions,
        replicationFactor,
        copy,
        create,
        consumers,
        group,
        processingTime,
        sink,
        producers);
  }

  public TopicSpec withCreate(boolean createWhenMissing) {
    return new TopicSpec(
        name,
        partitions,
        replicationFactor,
        configs,
        createWhenMissing,
        consumers,
        group,
        processingTime,
        sink,
        producers);
  }

  public TopicSpec withConsumers(int count) {
    return new TopicSpec(
        name,
        partitions,
        replicationFactor,
        configs,
        create,
        count,
        group,
        processingTime,
        sink,
        producers);
  }

  public TopicSpec withGroup(String groupId) {
    return new TopicSpec(
        name,
        partitions,
        replicationFactor,
        configs,
        create,
        consumers,
        groupId,
        processingTime,
        sink,
        producers);
  }

  /** The consumers write into {@code sink} exactly once (see {@link TopicSink}). */
  public TopicSpec withSink(TopicSink sink) {
    return new TopicSpec(
        name,
        partitions,
        replicationFactor,
        configs,
        create,
        consumers,
        group,
        processingTime,
        sink,
        producers);
  }

  /**
   * Writes with {@code count} producers of its own, in turn (see {@link #producers()}); 0 for the
   * run's one producer.
   */
  public TopicSpec withProducers(int count) {
    return new TopicSpec(
        name,
        partitions,
        replicationFactor,
        configs,
        create,
        consumers,
        group,
        processingTime,
        sink,
        count);
  }

  public TopicSpec withProcessingTime(Duration perMessage) {
    return new TopicSpec(
        name,
        partitions,
        replicationFactor,
        configs,
        create,
        consumers,
        group,
        perMessage,
        sink,
        producers);
  }
}
