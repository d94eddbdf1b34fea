package io.fusillade.gatling.topic;

import io.fusillade.gatling.check.Check;
import java.util.Optional;
import java.util.Set;

/**
 * The extractors of a send's acknowledgement ({@link TopicDsl#partition()}...). A send the broker
 * did not acknowledge is KO with the reason before any check runs, unless a check reads the
 * acknowledgement itself ({@link TopicDsl#acknowledged()}).
 */
final class TopicChecks {
  /** What {@link TopicDsl#acknowledged()} needs: the failure, which other checks never see. */
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

  static Check<TopicAck, Boolean> acknowledged() {
    return Check.of("acknowledged", Set.of(ERROR), a -> Optional.of(a.acknowledged()));
  }
}
