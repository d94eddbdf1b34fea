package io.fusillade.gatling.kafka;

import io.fusillade.gatling.check.Check;
import io.fusillade.gatling.check.CheckIf;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * A request-reply: sends a message as {@link TopicSendBuilder} does (key, value, headers) with a
 * correlation id in a header, then waits for the message carrying the same id on the reply topic.
 * The request's latency runs from its due time to the reply's arrival; no reply within the timeout
 * is KO. Immutable, in Gatling's style.
 *
 * <p>Example: {@code kafka("quote").requestReply("quotes").replyTopic("quote-replies")
 * .value("#{order}").check(messageValue().is("accepted"))}.
 */
public final class TopicRequestReplyBuilder extends TopicMessageBuilder<TopicRequestReplyBuilder>
    implements ActionBuilder {
  private final TopicReply reply;

  TopicRequestReplyBuilder(TopicSend send, TopicReply reply) {
    super(send);
    this.reply = reply;
  }

  /** What this builder waits for (for tests). */
  TopicReply reply() {
    return reply;
  }

  @Override
  TopicRequestReplyBuilder with(TopicSend changed) {
    return new TopicRequestReplyBuilder(changed, reply);
  }

  /**
   * The topic the replies come on (required): one reader per reply topic for all virtual users,
   * positioned at its end when the run starts.
   *
   * <p>Example: {@code kafka("quote").requestReply("quotes").replyTopic("quote-replies")}.
   */
  public TopicRequestReplyBuilder replyTopic(String topic) {
    if (topic == null || topic.isBlank()) {
      throw new IllegalArgumentException("replyTopic(topic) needs a topic");
    }
    return new TopicRequestReplyBuilder(send, reply.withTopic(topic));
  }

  /**
   * How long after the request's due time its reply may come (default 10 s); later, the request is
   * KO, and a reply that comes after is ignored.
   *
   * <p>Example: {@code .replyTopic("quote-replies").timeout(Duration.ofSeconds(2))}.
   */
  public TopicRequestReplyBuilder timeout(Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout(...) needs a positive duration");
    }
    return new TopicRequestReplyBuilder(send, reply.withTimeout(timeout));
  }

  /**
   * The header that carries the correlation id (default {@value TopicReply#DEFAULT_HEADER}): the
   * request gets it, and the responder must copy it into its reply.
   *
   * <p>Example: {@code .correlationHeader("correlation-id")}.
   */
  public TopicRequestReplyBuilder correlationHeader(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("correlationHeader(name) needs a header name");
    }
    return new TopicRequestReplyBuilder(send, reply.withHeader(name));
  }

  /**
   * Checks on the reply, in Gatling's idiom ({@link KafkaDsl#messageValue()}, {@link
   * KafkaDsl#messageKey()}, {@link KafkaDsl#messageHeader(String)}, {@link
   * KafkaDsl#messageLatency()}); the first that fails makes the request KO with its message.
   *
   * <p>Example: {@code .check(messageValue().is("accepted"), messageLatency().lt(100))}.
   */
  @SafeVarargs
  public final TopicRequestReplyBuilder check(Check<TopicMessage, ?>... checks) {
    return new TopicRequestReplyBuilder(send, reply.withChecks(List.of(checks)));
  }

  /**
   * Checks on the reply run only for the sessions where a Gatling EL string is {@code true}.
   *
   * <p>Example: {@code .checkIf("#{audit}").then(messageHeader("auditor").exists())}.
   */
  public CheckIf<TopicMessage, TopicRequestReplyBuilder> checkIf(String condition) {
    return new CheckIf<>(
        CheckIf.el(condition),
        checks -> new TopicRequestReplyBuilder(send, reply.withChecks(checks)));
  }

  /**
   * Checks on the reply run only for the sessions where {@code condition} holds.
   *
   * <p>Example: {@code .checkIf(s -> s.getBoolean("audit")).then(messageValue().exists())}.
   */
  public CheckIf<TopicMessage, TopicRequestReplyBuilder> checkIf(
      Function<Session, Boolean> condition) {
    return new CheckIf<>(
        io.fusillade.gatling.Expression.of(condition),
        checks -> new TopicRequestReplyBuilder(send, reply.withChecks(checks)));
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    if (reply.topic() == null) {
      throw new IllegalStateException(
          "request "
              + send.name()
              + ": requestReply("
              + send.topic()
              + ") needs .replyTopic(topic)");
    }
    TopicSend s = send;
    TopicReply r = reply;
    return KafkaProtocol.KEY.actionBuilder(
        (components, next) -> new TopicRequestReplyAction(s, r, components, next));
  }
}
