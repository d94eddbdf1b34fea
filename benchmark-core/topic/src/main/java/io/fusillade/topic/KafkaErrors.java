package io.fusillade.topic;

import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.BufferExhaustedException;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * Turns a Kafka client exception into a short failure reason. Reasons are counted per distinct
 * text, so numbers (record counts, milliseconds, partition numbers) are replaced by {@code N}.
 */
public final class KafkaErrors {
  private KafkaErrors() {}

  public static String reason(Throwable error) {
    if (error instanceof NodeDown down) {
      return down.getMessage(); // "connection refused: 127.0.0.1:9092", numbers and all
    }
    Throwable e = error;
    while ((e instanceof ExecutionException || e.getClass() == RuntimeException.class)
        && e.getCause() != null) {
      e = e.getCause();
    }
    if (e instanceof BufferExhaustedException) {
      return "producer buffer full (buffer.memory, max.block.ms)";
    }
    String message = e.getMessage() == null ? "" : e.getMessage();
    if (e instanceof TimeoutException && message.startsWith("Expiring")) {
      return "delivery timeout: not acknowledged within delivery.timeout.ms";
    }
    if (e instanceof TimeoutException && message.contains("not present in metadata")) {
      // The producer lost the topic's metadata (its broker went down before BrokerWatch's next
      // look) and could not fetch it again within max.block.ms, which Fusillade sets to 0.
      return "metadata timeout: topic leader unknown within max.block.ms (broker unreachable)";
    }
    String text = e.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
    text = text.replaceAll("[0-9]+", "N");
    return text.length() > 160 ? text.substring(0, 160) : text;
  }

  /**
   * A send failed at once because every broker endpoint is down ({@link BrokerWatch}); its message
   * is the reason, e.g. {@code "connection refused: 127.0.0.1:9092"}.
   */
  static final class NodeDown extends RuntimeException {
    NodeDown(String reason) {
      super(reason, null, false, false); // thousands a second while down: no stack trace
    }
  }
}
