package io.fusillade.workload;

import io.fusillade.gen.ValueSpec;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One entry of a workload's {@code topics:} section: a topic, its consumers, what to write to it
 * and how fast.
 *
 * @param name the topic
 * @param partitions partitions when created
 * @param replication replication factor when created
 * @param create whether to create it when missing (otherwise it must exist)
 * @param configs topic configs when created
 * @param consumers consumers in the group reading it for the whole run (0: none)
 * @param group the consumer group id, or null for a fresh one per run
 * @param messageSize value sizes: an integer or long spec with a range (a constant for a fixed
 *     size)
 * @param key keys, or empty for messages without a key
 * @param producer producer properties
 * @param consumer consumer properties
 * @param rate messages per second at a constant rate, or null when {@code steps} is given
 * @param steps a rising rate, or null
 * @param duration how long the constant rate lasts (steps have their own)
 */
public record TopicWorkload(
    String name,
    int partitions,
    int replication,
    boolean create,
    Map<String, String> configs,
    int consumers,
    String group,
    ValueSpec messageSize,
    Optional<ValueSpec> key,
    Map<String, String> producer,
    Map<String, String> consumer,
    Double rate,
    Steps steps,
    Duration duration) {

  /** Copies the maps. */
  public TopicWorkload {
    configs = copy(configs);
    producer = copy(producer);
    consumer = copy(consumer);
  }

  /**
   * A rate rising in steps.
   *
   * @param start messages per second of the first step
   * @param increment added at each step
   * @param count number of steps
   * @param duration of each step
   */
  public record Steps(double start, double increment, int count, Duration duration) {}

  private static Map<String, String> copy(Map<String, String> m) {
    return Collections.unmodifiableMap(new LinkedHashMap<>(m));
  }
}
