package io.fusillade.gatling.kafka;

import io.fusillade.record.Injected;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes that fail on purpose on a Kafka-compatible cluster (fault injection), each sent as request
 * {@code injected <kind>} ({@link Injected}) by a producer of its own, beside the protocol's: the
 * delivery verifier, the lag and the end-to-end latency never see them, and the run's error and
 * latency checks leave them out unless a check names them.
 *
 * <pre>{@code
 * randomSwitch().on(
 *     percent(1).then(exec(KafkaDsl.injected(TopicFaults.OVERSIZED_MESSAGE, "orders"))),
 *     percent(99).then(exec(kafka("write orders").send("orders"))))
 * }</pre>
 *
 * A workload file says the same with {@code injected: [{kind: oversized message, share: 1%}]}.
 */
public final class TopicFaults {
  /**
   * A message of {@value #OVERSIZED_BYTES} bytes, above the brokers' default {@code
   * message.max.bytes} (1 MiB and 12 bytes), from a producer that allows it: the broker refuses it
   * ({@code RecordTooLargeException}, error {@code MESSAGE_TOO_LARGE}). A topic whose {@code
   * max.message.bytes} is larger takes it.
   */
  public static final String OVERSIZED_MESSAGE = "oversized message";

  /**
   * A message to {@code fusillade-missing-<topic>}, which does not exist: the producer finds no
   * metadata for it and fails at once ({@code max.block.ms} 0). A cluster that creates topics on
   * first use ({@code auto.create.topics.enable}) takes it.
   */
  public static final String MISSING_TOPIC = "missing topic";

  /**
   * A producer whose {@code max.request.size} ({@value #WRONG_MAX_REQUEST_SIZE} bytes) is below the
   * message of {@value #WRONG_SETTING_BYTES} bytes: the client refuses it before any broker sees
   * it, as a misconfigured producer does.
   */
  public static final String WRONG_SETTING = "wrong setting";

  /** Every kind. */
  public static final List<String> KINDS = List.of(OVERSIZED_MESSAGE, MISSING_TOPIC, WRONG_SETTING);

  /** The size of an oversized message: the default limit and 64 KiB. */
  public static final int OVERSIZED_BYTES = 1_048_588 + 65_536;

  /** The {@code max.request.size} of the producer with a wrong setting. */
  public static final int WRONG_MAX_REQUEST_SIZE = 1_024;

  /** The message the producer with a wrong setting sends. */
  public static final int WRONG_SETTING_BYTES = 2_048;

  private TopicFaults() {}

  /** Fails for a kind that is not one of {@link #KINDS}. */
  static void requireKind(String kind) {
    if (!KINDS.contains(kind)) {
      throw new IllegalArgumentException(
          "no injected kind \"" + kind + "\": one of " + String.join(", ", KINDS));
    }
  }

  /** The topic a kind writes to, for a workload topic. */
  static String topic(String kind, String topic) {
    return MISSING_TOPIC.equals(kind) ? "fusillade-missing-" + topic : topic;
  }

  /** The message of a kind: random bytes, which no compression makes smaller. */
  static byte[] value(String kind) {
    byte[] value = new byte[size(kind)];
    new java.util.SplittableRandom(kind.hashCode()).nextBytes(value);
    return value;
  }

  /** The size of the message a kind sends. */
  static int size(String kind) {
    return switch (kind) {
      case OVERSIZED_MESSAGE -> OVERSIZED_BYTES;
      case WRONG_SETTING -> WRONG_SETTING_BYTES;
      default -> 100;
    };
  }

  /**
   * Fetches a topic's metadata into a producer before the load, so that its first write fails for
   * its kind's reason, not for metadata it never waits for ({@code max.block.ms} 0). Gives up after
   * {@value #METADATA_WAIT_MS} ms: the writes then fail with a metadata timeout.
   */
  static void fetchMetadata(KafkaProducer<byte[], byte[]> producer, String topic) {
    long deadline = System.nanoTime() + METADATA_WAIT_MS * 1_000_000L;
    while (System.nanoTime() < deadline) {
      try {
        producer.partitionsFor(topic); // each call asks for the metadata it does not have yet
        return;
      } catch (org.apache.kafka.common.KafkaException e) {
        try {
          Thread.sleep(20);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** How long {@link #fetchMetadata} waits. */
  static final long METADATA_WAIT_MS = 10_000;

  /**
   * The producer of a kind: the protocol's producer properties (its cluster and security), with
   * what the kind needs, never retrying, never blocking the caller.
   */
  static KafkaProducer<byte[], byte[]> producer(String kind, Map<String, Object> protocol) {
    Map<String, Object> p = new HashMap<>(protocol);
    p.remove("transactional.id");
    p.put("client.id", "fusillade-injected-" + kind.replace(' ', '-'));
    p.put("max.block.ms", "0");
    p.put("enable.idempotence", "false");
    p.put("retries", "0");
    p.put("linger.ms", "0");
    // compressed, an oversized message of the protocol's compression could fit under the limit
    p.put("compression.type", "none");
    // a kind whose window opens late still has the topic's metadata fetched before the load
    p.put("metadata.max.idle.ms", String.valueOf(24 * 3_600_000L));
    p.put(
        "max.request.size",
        String.valueOf(WRONG_SETTING.equals(kind) ? WRONG_MAX_REQUEST_SIZE : 2 * OVERSIZED_BYTES));
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }
}
