package io.fusillade.gatling.kafka;

import io.fusillade.gatling.Expression;

/** A named topic request waiting for what it does. Immutable. */
public final class KafkaRequest {
  private final Expression<String> name;

  KafkaRequest(Expression<String> name) {
    this.name = name;
  }

  /**
   * Sends one message to {@code topic}: no key, a 1 KiB value, unless set with the builder's
   * methods. The request's latency runs from the action's entry to the broker's acknowledgement.
   * The topic's name is a Gatling EL template ({@code "events-#{region}"}); a name from the session
   * should be one of the protocol's declared topics, which are prepared before the load (another is
   * created or checked at its first message, which then waits for it).
   *
   * <p>Example: {@code kafka("write").send("events").value("#{payload}")}.
   */
  public TopicSendBuilder send(String topic) {
    if (topic == null || topic.isBlank()) {
      throw new IllegalArgumentException("request " + name + ": send(topic) needs a topic");
    }
    return new TopicSendBuilder(TopicSend.of(name, topic));
  }

  /**
   * Sends one message to {@code topic}, as {@link #send(String)} does, with a correlation id in a
   * header, and waits for the message with the same id on the reply topic ({@link
   * TopicRequestReplyBuilder#replyTopic(String)}, required). Its latency runs from the request's
   * due time to the reply's arrival; no reply within the timeout (10 s unless set) is KO.
   *
   * <p>Example: {@code
   * kafka("quote").requestReply("quotes").replyTopic("quote-replies").value("#{order}")}.
   */
  public TopicRequestReplyBuilder requestReply(String topic) {
    if (topic == null || topic.isBlank()) {
      throw new IllegalArgumentException("request " + name + ": requestReply(topic) needs a topic");
    }
    return new TopicRequestReplyBuilder(TopicSend.of(name, topic), TopicReply.none());
  }

  /**
   * Takes the next message of {@code topic} that no other virtual user took, from the protocol's
   * one reader of it (a consumer group of the run's own, which reads from the end of the topic when
   * the run starts). Its latency is the wait, from the request's due time; nothing within the
   * timeout (10 s unless set) is KO.
   *
   * <p>Example: {@code kafka("read").consume("events").check(messageValue().exists())}.
   */
  public TopicConsumeBuilder consume(String topic) {
    if (topic == null || topic.isBlank()) {
      throw new IllegalArgumentException("request " + name + ": consume(topic) needs a topic");
    }
    return new TopicConsumeBuilder(name, TopicReply.none().withTopic(topic));
  }
}
