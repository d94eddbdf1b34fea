package io.fusillade.gatling.kafka;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.check.Check;
import io.fusillade.gatling.check.CheckIf;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * A consume: takes the next message of a topic from the protocol's one reader of it (not a consumer
 * per virtual user), with checks on its key, value, headers and end-to-end latency. Nothing within
 * the timeout is KO. Immutable, in Gatling's style.
 *
 * <p>Example: {@code kafka("read").consume("events").check(messageLatency().lt(50))}.
 */
public final class TopicConsumeBuilder implements ActionBuilder {
  private final Expression<String> name;
  private final TopicReply consume; // its topic, timeout and checks (no correlation header)

  TopicConsumeBuilder(Expression<String> name, TopicReply consume) {
    this.name = name;
    this.consume = consume;
  }

  /** What this builder holds (for tests). */
  TopicReply consume() {
    return consume;
  }

  /**
   * How long the virtual user waits for a message, from the request's due time (default 10 s).
   *
   * <p>Example: {@code kafka("read").consume("events").timeout(Duration.ofSeconds(2))}.
   */
  public TopicConsumeBuilder timeout(Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout(...) needs a positive duration");
    }
    return new TopicConsumeBuilder(name, consume.withTimeout(timeout));
  }

  /**
   * Reads in the consumer group {@code id} instead of a group of the run's own. A named group
   * resumes where it last committed (the consumer's auto commit) and is shared: the consumes of
   * several injectors, or of runs one after another, that name it split the topic's partitions
   * between them (each needs one partition at least, or it gets no message).
   *
   * <p>Example: {@code kafka("read").consume("events").group("billing")}.
   */
  public TopicConsumeBuilder group(String id) {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("group(...) needs a group id");
    }
    return new TopicConsumeBuilder(name, consume.withGroup(id));
  }

  /**
   * Checks on the message ({@link KafkaDsl#messageValue()}, {@link KafkaDsl#messageKey()}, {@link
   * KafkaDsl#messageHeader(String)}, {@link KafkaDsl#messageLatency()}: the end-to-end latency from
   * its send, for a message this run sent); the first that fails makes the request KO.
   *
   * <p>Example: {@code .check(messageHeader("source").is("eu"), messageLatency().lt(50))}.
   */
  @SafeVarargs
  public final TopicConsumeBuilder check(Check<TopicMessage, ?>... checks) {
    return new TopicConsumeBuilder(name, consume.withChecks(List.of(checks)));
  }

  /**
   * Checks run only for the sessions where a Gatling EL string is {@code true}.
   *
   * <p>Example: {@code .checkIf("#{audit}").then(messageKey().exists())}.
   */
  public CheckIf<TopicMessage, TopicConsumeBuilder> checkIf(String condition) {
    return new CheckIf<>(
        CheckIf.el(condition), checks -> new TopicConsumeBuilder(name, consume.withChecks(checks)));
  }

  /**
   * Checks run only for the sessions where {@code condition} holds.
   *
   * <p>Example: {@code .checkIf(s -> s.getBoolean("audit")).then(messageKey().exists())}.
   */
  public CheckIf<TopicMessage, TopicConsumeBuilder> checkIf(Function<Session, Boolean> condition) {
    return new CheckIf<>(
        Expression.of(condition),
        checks -> new TopicConsumeBuilder(name, consume.withChecks(checks)));
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    Expression<String> n = name;
    TopicReply c = consume;
    return KafkaProtocol.KEY.actionBuilder(
        (components, next) -> new TopicConsumeAction(n, c, components, next));
  }
}
