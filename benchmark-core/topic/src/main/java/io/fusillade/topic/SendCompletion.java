package io.fusillade.topic;

/**
 * What happened to one send. It runs on the Kafka client's I/O thread: record, hand over, return;
 * never block.
 */
@FunctionalInterface
public interface SendCompletion {
  /**
   * @param endNanos {@link System#nanoTime()} when the acknowledgement (or failure) arrived
   * @param error null when the broker acknowledged the message
   */
  void completed(long endNanos, Exception error);

  /**
   * What happened to one send, with where the broker put the message; by default, {@link
   * #completed}.
   *
   * @param partition the message's partition, or -1 when it was never given one
   * @param offset its offset in the partition, or -1 when the broker did not acknowledge it
   */
  default void completed(long endNanos, Exception error, int partition, long offset) {
    completed(endNanos, error);
  }
}
