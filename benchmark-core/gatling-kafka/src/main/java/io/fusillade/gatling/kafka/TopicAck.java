package io.fusillade.gatling.kafka;

/**
 * What a send's checks read: where the broker put the message, or why it did not.
 *
 * <p>Example: {@code kafka("write").send("events").check(partition().is(0), offset().gte(0))}.
 *
 * @param partition the message's partition, or -1 when it was never given one
 * @param offset its offset in the partition, or -1 when the broker did not acknowledge it
 * @param error why the send failed, or null when the broker acknowledged it
 */
public record TopicAck(int partition, long offset, String error) {
  /** Whether the broker acknowledged the message. */
  public boolean acknowledged() {
    return error == null;
  }
}
