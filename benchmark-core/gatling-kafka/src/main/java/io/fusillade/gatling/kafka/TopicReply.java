package io.fusillade.gatling.kafka;

import io.fusillade.gatling.check.Check;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What a request-reply waits for, as configured: the value a {@link TopicRequestReplyBuilder} holds
 * besides its request. Each {@code with...} returns a changed copy.
 *
 * @param topic the reply topic, or null until set
 * @param timeout how long after the request's due time a reply may come
 * @param header the header carrying the correlation id, in the request and in its reply
 * @param checks checks on the reply
 */
record TopicReply(
    String topic, Duration timeout, String header, List<Check<TopicMessage, ?>> checks) {
  /** The correlation header's default name. */
  static final String DEFAULT_HEADER = "fusillade.correlation";

  /** The default timeout. */
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  TopicReply {
    checks = List.copyOf(checks);
  }

  static TopicReply none() {
    return new TopicReply(null, DEFAULT_TIMEOUT, DEFAULT_HEADER, List.of());
  }

  TopicReply withTopic(String value) {
    return new TopicReply(value, timeout, header, checks);
  }

  TopicReply withTimeout(Duration value) {
    return new TopicReply(topic, value, header, checks);
  }

  TopicReply withHeader(String value) {
    return new TopicReply(topic, timeout, value, checks);
  }

  TopicReply withChecks(List<? extends Check<TopicMessage, ?>> more) {
    List<Check<TopicMessage, ?>> all = new ArrayList<>(checks);
    all.addAll(more);
    return new TopicReply(topic, timeout, header, all);
  }
}
