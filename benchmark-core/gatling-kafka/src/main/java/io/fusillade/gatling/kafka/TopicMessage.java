package io.fusillade.gatling.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * What the checks of a reply ({@link KafkaRequest#requestReply(String)}) or of a consumed message
 * ({@link KafkaRequest#consume(String)}) read: a message as a reader received it.
 *
 * <p>Example: {@code kafka("quote").requestReply("quotes").replyTopic("quote-replies")
 * .check(messageValue().is("ok"), messageLatency().lt(100))}.
 *
 * @param topic the topic it was read from
 * @param partition its partition
 * @param offset its offset in the partition
 * @param key its key, or null
 * @param value its value, or null (a tombstone)
 * @param headers its headers by name (the last value of a repeated name)
 * @param latencyNanos for a reply, the time from its request's due time to its arrival; for a
 *     consumed message, from its send (the stamp of a message this run sent) to its arrival, else
 *     -1
 */
public record TopicMessage(
    String topic,
    int partition,
    long offset,
    byte[] key,
    byte[] value,
    Map<String, byte[]> headers,
    long latencyNanos) {

  /** The key as UTF-8 text, or null. */
  public String keyText() {
    return key == null ? null : new String(key, StandardCharsets.UTF_8);
  }

  /** The value as UTF-8 text, or null. */
  public String valueText() {
    return value == null ? null : new String(value, StandardCharsets.UTF_8);
  }

  /** A header's value as UTF-8 text, or null when the message has no such header. */
  public String header(String name) {
    byte[] v = headers.get(name);
    return v == null ? null : new String(v, StandardCharsets.UTF_8);
  }
}
