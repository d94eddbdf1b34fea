package io.fusillade.topic;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Where a topic's consumers put what they read, exactly once: a database table, written with the
 * consumed offsets in the same transaction (the "topic to table" pipeline of an application that
 * must neither lose nor repeat a message), or another topic, written with the offsets in one Kafka
 * transaction ({@link KafkaTopicSink}: consume, transform, produce). With a sink, the consumer
 * group commits nothing to Kafka: each consumer resumes a partition where the sink's own offsets
 * say, so a consumer that stops between its write and a Kafka commit cannot write a message twice.
 *
 * <p>The delivery verifier then counts a message as received once its row is committed, and the
 * end-to-end latency ({@code e2e <topic>}) runs from the message's stamp to its row.
 */
public interface TopicSink {

  /**
   * Opens the writer of one consumer: its own connection, used by its thread only.
   *
   * @param consumer the consumer's index in the group
   */
  Writer open(int consumer);

  /**
   * What the sink holds after the run, for the run record's health ({@code topic.<name>.sink}): its
   * rows, and how many of them repeat a message.
   */
  Map<String, Object> audit(String topic);

  /**
   * Called once the group runs, with what lets faults stop and start its consumers ({@code kill
   * consumer 1 for 5s}).
   */
  void attached(Consumers consumers);

  /** The consumers given to {@link #attached}, or null before the group runs. */
  Consumers consumers();

  /**
   * An audit as {@link #audit} gives it.
   *
   * @param kind {@code table} or {@code topic}
   * @param name the table's or the topic's name
   * @param rows the rows (copies) held
   * @param distinct the messages among them
   */
  static Map<String, Object> audit(String kind, String name, long rows, long distinct) {
    Map<String, Object> audit = new java.util.LinkedHashMap<>();
    audit.put(kind, name);
    audit.put("rows", rows);
    audit.put("distinct", distinct);
    audit.put("duplicated", rows - distinct);
    return audit;
  }

  /** A message as a sink stores it. */
  record Row(int partition, long offset, long producerId, long sequence, long sendNanos) {}

  /** One consumer's writes. */
  interface Writer extends AutoCloseable {
    /**
     * The next offset of each partition as the sink committed it, for the partitions a consumer was
     * given; a partition the sink never wrote is absent (it starts where the group's reset policy
     * says).
     */
    Map<Integer, Long> offsets(String topic, Collection<Integer> partitions);

    /**
     * Stores the rows and each partition's next offset in one transaction, and returns once it is
     * committed.
     *
     * @throws RuntimeException when it is not: nothing of it is stored
     */
    void store(String topic, List<Row> rows, Map<Integer, Long> nextOffsets);

    /**
     * Called once the consumer exists, with what reads its group's current metadata: a writer that
     * commits the offsets in a Kafka transaction needs it ({@code sendOffsetsToTransaction}).
     */
    default void consumer(
        java.util.function.Supplier<org.apache.kafka.clients.consumer.ConsumerGroupMetadata>
            group) {}

    @Override
    void close();
  }

  /** The consumers of a group, for faults: a consumer stopped, and started again. */
  interface Consumers {
    /** How many. */
    int count();

    /**
     * Stops consumer {@code index} (0-based) after its current write, leaving the group: its
     * partitions go to the others.
     */
    void stop(int index);

    /** Starts consumer {@code index} again after {@link #stop}. */
    void start(int index);
  }
}
