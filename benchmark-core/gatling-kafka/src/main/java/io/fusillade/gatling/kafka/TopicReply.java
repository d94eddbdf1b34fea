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
 * @param group a consume's consumer group, or null for one of the run's own (a request-reply reads
 *     without a group)
 */
record TopicReply(
    String topic,
    Duration timeout,
    String header,
    List<Check<TopicMessage, ?>> checks,
    String group) {
  /** The correlation header's default name. */
  static final String DEFAULT_HEADER = "fusillade.correlation";

  /** The default timeout. */
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  TopicReply {
    checks = List.copyOf(checks);
  }

  static TopicReply none() {
    return new TopicReply(null, DEFAULT_TIMEOUT, DEFAULT_HEADER, List.of(), null);
  }

  TopicReply withTopic(String value) {
    return new TopicReply(value, timeout, header, checks, group);
  }

  TopicReply withTimeout(Duration value) {
    return new TopicReply(topic, value, header, checks, group);
  }

  TopicReply withHeader(String value) {
    return new TopicReply(topic, timeout, value, checks, group);
  }

  TopicReply withGroup(String value) {
    return new TopicReply(topic, timeout, header, checks, value);
  }

  TopicReply withChecks(List<? extends Check<TopicMessage, ?>> more) {
    List<Check<TopicMessage, ?>> all = new ArrayList<>(checks);
    all.addAll(more);
    return new TopicReply(topic, timeout, header, all, group);
  }
}
