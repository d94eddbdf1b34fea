package io.fusillade.gatling.topic;

import io.fusillade.gatling.Expression;
import java.util.List;
import org.apache.kafka.common.header.Header;

/**
 * A send as configured: the value a {@link TopicSendBuilder} wraps. Each {@code with...} returns a
 * changed copy.
 */
record TopicSend(
    Expression<String> name, String topic, KeySource key, SizeSource size, List<Header> headers) {

  TopicSend {
    headers = List.copyOf(headers);
  }

  /** No key, 1 KiB values, no headers. */
  static TopicSend of(Expression<String> name, String topic) {
    return new TopicSend(name, topic, KeySource.NONE, SizeSource.fixed(1024), List.of());
  }

  TopicSend withKey(KeySource value) {
    return new TopicSend(name, topic, value, size, headers);
  }

  TopicSend withSize(SizeSource value) {
    return new TopicSend(name, topic, key, value, headers);
  }

  TopicSend withHeader(Header header) {
    List<Header> all = new java.util.ArrayList<>(headers);
    all.add(header);
    return new TopicSend(name, topic, key, size, all);
  }
}
