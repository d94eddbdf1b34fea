package io.fusillade.gatling.kafka;

import io.fusillade.gatling.check.Check;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The extractors of a send's acknowledgement ({@link KafkaDsl#partition()}...). A send the broker
 * did not acknowledge is KO with the reason before any check runs, unless a check reads the
 * acknowledgement itself ({@link KafkaDsl#acknowledged()}); and of a message received ({@link
 * KafkaDsl#messageValue()}...).
 */
final class TopicChecks {
  /** What {@link KafkaDsl#acknowledged()} needs: the failure, which other checks never see. */
  static final String ERROR = "error";

  private TopicChecks() {}

  static Check<TopicAck, Integer> partition() {
    return Check.of(
        "partition",
        Set.of(),
        a -> a.partition() < 0 ? Optional.empty() : Optional.of(a.partition()));
  }

  static Check<TopicAck, Long> offset() {
    return Check.of(
        "offset", Set.of(), a -> a.offset() < 0 ? Optional.empty() : Optional.of(a.offset()));
  }

  static Check<TopicMessage, String> messageKey() {
    return Check.of("messageKey", Set.of(), m -> Optional.ofNullable(m.keyText()));
  }

  static Check<TopicMessage, String> messageValue() {
    return Check.of("messageValue", Set.of(), m -> Optional.ofNullable(m.valueText()));
  }

  static Check<TopicMessage, byte[]> messageBytes() {
    return Check.of("messageBytes", Set.of(), m -> Optional.ofNullable(m.value()));
  }

  static Check<TopicMessage, String> messageHeader(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("messageHeader(name) needs a header name");
    }
    return Check.of(
        "messageHeader(" + name + ")", Set.of(), m -> Optional.ofNullable(m.header(name)));
  }

  static Check<TopicMessage, Long> messageLatency() {
    return Check.of(
        "messageLatency",
        Set.of(),
        m ->
            m.latencyNanos() < 0
                ? Optional.empty()
                : Optional.of(TimeUnit.NANOSECONDS.toMillis(m.latencyNanos())));
  }

  static Check<TopicAck, Boolean> acknowledged() {
    return Check.of("acknowledged", Set.of(ERROR), a -> Optional.of(a.acknowledged()));
  }
}
