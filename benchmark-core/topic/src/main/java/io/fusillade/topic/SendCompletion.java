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
}
