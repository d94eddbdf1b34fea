package io.fusillade.gatling.kafka;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.check.Check;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A send as configured: the value a {@link TopicSendBuilder} wraps. Each {@code with...} returns a
 * changed copy.
 *
 * @param value the value from the session, or null for generated payloads of {@code size}
 * @param headers each header's name and value from the session
 */
record TopicSend(
    Expression<String> name,
    String topic,
    KeySource key,
    SizeSource size,
    Expression<byte[]> value,
    List<Map.Entry<String, Expression<byte[]>>> headers,
    List<Check<TopicAck, ?>> checks) {

  TopicSend {
    headers = List.copyOf(headers);
    checks = List.copyOf(checks);
  }

  /** No key, 1 KiB generated values, no headers, no checks. */
  static TopicSend of(Expression<String> name, String topic) {
    return new TopicSend(
        name, topic, KeySource.NONE, SizeSource.fixed(1024), null, List.of(), List.of());
  }

  TopicSend withKey(KeySource value) {
    return new TopicSend(name, topic, value, size, this.value, headers, checks);
  }

  /** Generated values of these sizes, replacing a value from the session. */
  TopicSend withSize(SizeSource value) {
    return new TopicSend(name, topic, key, value, null, headers, checks);
  }

  /** The value from the session, replacing generated ones. */
  TopicSend withValue(Expression<byte[]> value) {
    return new TopicSend(name, topic, key, size, value, headers, checks);
  }

  TopicSend withHeader(String header, Expression<byte[]> value) {
    List<Map.Entry<String, Expression<byte[]>>> all = new ArrayList<>(headers);
    all.add(new AbstractMap.SimpleImmutableEntry<>(header, value));
    return new TopicSend(name, topic, key, size, this.value, all, checks);
  }

  TopicSend withChecks(List<? extends Check<TopicAck, ?>> more) {
    List<Check<TopicAck, ?>> all = new ArrayList<>(checks);
    all.addAll(more);
    return new TopicSend(name, topic, key, size, value, headers, all);
  }
}
