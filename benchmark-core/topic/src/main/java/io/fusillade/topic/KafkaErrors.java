package io.fusillade.topic;

import io.fusillade.record.FailureClass;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.BufferExhaustedException;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * Turns a Kafka client exception into a short failure reason. Reasons are counted per distinct
 * text, so numbers (record counts, milliseconds, partition numbers) are replaced by {@code N}.
 *
 * <p>A broker whose disk fills answers its producers {@code KAFKA_STORAGE_ERROR}, which they retry,
 * then stops (Kafka halts a broker whose every log directory failed): what its clients end with is
 * a delivery timeout or a refused connection, the network's classes, though the server failed. When
 * the cluster's owner knows why its brokers failed ({@link #serverFailed(String)}: an embedded
 * cluster reads its brokers' logs), such reasons become that server failure, {@code "server: broker
 * 0's disk is full: ..."} ({@link FailureClass#SERVER}).
 */
public final class KafkaErrors {
  private KafkaErrors() {}

  private static volatile String serverFailure;

  /**
   * Says why the brokers failed, in their own words (the first call wins until {@code null} clears
   * it): from now on, a write that fails by a timeout or a lost connection is counted as this
   * server failure.
   *
   * @param why e.g. {@code "broker 0's disk is full: Error while appending records to t-0: No space
   *     left on device"}, or null to clear (a new run)
   */
  public static void serverFailed(String why) {
    if (why == null || serverFailure == null) {
      serverFailure = why;
    }
  }

  /** The reason of a failed Kafka call, as counted: see the class comment. */
  public static String reason(Throwable error) {
    String reason = clientReason(error);
    String failure = serverFailure;
    return failure != null && FailureClass.of(reason) == FailureClass.NETWORK
        ? "server: " + failure
        : reason;
  }

  private static String clientReason(Throwable error) {
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
