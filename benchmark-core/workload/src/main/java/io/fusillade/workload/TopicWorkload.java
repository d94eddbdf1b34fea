package io.fusillade.workload;

import io.fusillade.gen.ValueSpec;
import io.fusillade.record.RunSettings.Stage;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
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
 * @param rate messages per second at a constant rate, or null when {@code steps} or {@code stages}
 *     is given
 * @param steps a rising rate, or null
 * @param duration how long the constant rate lasts (steps and stages have their own)
 * @param stages the rate as ramps and holds, in order (the shape of {@code load.stages}: a spike is
 *     a hold at its peak), instead of rate or steps; empty for none
 * @param sinkTable the PostgreSQL table the consumers write each message into, with the consumed
 *     offsets in the same transaction (exactly once), or null
 * @param sinkTopic the topic the consumers copy each message to, with the consumed offsets in one
 *     Kafka transaction (exactly once), or null
 * @param producers the topic's writers ("streams"): producers of its own taking its messages in
 *     turn, each at its share of the rate; 0 for the run's one producer
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
    Duration duration,
    List<Stage> stages,
    String sinkTable,
    String sinkTopic,
    int producers) {

  /** The most producers a topic may have (the topic module's limit). */
  public static final int MAX_PRODUCERS = 256;

  /** Copies the maps and the list. */
  public TopicWorkload {
    configs = copy(configs);
    producer = copy(producer);
    consumer = copy(consumer);
    stages = stages == null ? List.of() : List.copyOf(stages);
  }

  /** A topic without stages (a constant rate or steps). */
  public TopicWorkload(
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
    this(
        name,
        partitions,
        replication,
        create,
        configs,
        consumers,
        group,
        messageSize,
        key,
        producer,
        consumer,
        rate,
        steps,
        duration,
        List.of(),
        null,
        null,
        0);
  }

  /**
   * How long this topic writes: the sum of its stages, its steps' count times their duration, or
   * its duration.
   *
   * @return the writing time
   */
  public Duration writing() {
    if (!stages.isEmpty()) {
      return stages.stream().map(Stage::duration).reduce(Duration.ZERO, Duration::plus);
    }
    return steps != null ? steps.duration().multipliedBy(steps.count()) : duration;
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
