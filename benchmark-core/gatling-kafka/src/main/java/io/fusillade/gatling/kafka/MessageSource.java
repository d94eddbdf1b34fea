package io.fusillade.gatling.kafka;

import io.fusillade.gatling.Expression;
import io.fusillade.gen.Seeds;
import io.fusillade.topic.Payloads;
import io.fusillade.topic.ProducedTopic;
import io.fusillade.topic.TopicClient;
import io.gatling.core.session.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The messages a request writes, as its builder set them ({@link TopicMessageBuilder}): bound to
 * the client when the action is built (the topic prepared, keys and sizes seeded), resolved per
 * session. Shared by the send and the request-reply actions.
 */
final class MessageSource {
  private final TopicClient client;
  private final ProducedTopic topic; // null when the topic's name comes from the session
  private final Expression<String> topicName;
  private final KeySource key;
  private final IntSupplier size;
  private final Payloads payloads;
  private final Expression<byte[]> value;
  private final List<Map.Entry<String, Expression<byte[]>>> headers;

  /** One message as a session sends it; a null value is generated at the send. */
  record Message(ProducedTopic topic, byte[] key, byte[] value, List<Header> headers) {}

  MessageSource(TopicSend send, TopicClient client) {
    this.client = client;
    String name = send.topic();
    this.topicName = Expression.text(name);
    // Prepared here, before injection: topic created or checked, metadata fetched. A name from
    // the session is looked up per message: declared topics are prepared before the load.
    this.topic = topicName.isConstant() ? client.topic(name) : null;
    long seed = client.options().seed();
    this.key = send.key().bind(Seeds.derive(seed, "key"), name);
    this.size = send.size().bind(Seeds.derive(seed, "size"), name);
    // generated values only when the session gives none
    this.payloads =
        send.value() != null
            ? null
            : new Payloads(Seeds.derive(seed, name), send.size().min(), send.size().max());
    this.value = send.value();
    this.headers = send.headers();
  }

  /**
   * The message's key, value and headers for this session; {@code extra} (may be null) is added
   * after the builder's headers.
   */
  Message resolve(Session session, Header extra) {
    List<Header> resolved = null;
    if (!headers.isEmpty() || extra != null) {
      resolved = new ArrayList<>(headers.size() + 1);
      for (Map.Entry<String, Expression<byte[]>> h : headers) {
        resolved.add(new RecordHeader(h.getKey(), h.getValue().resolve(session)));
      }
      if (extra != null) {
        resolved.add(extra);
      }
    }
    byte[] bytes = value == null ? null : value.resolve(session);
    if (value != null && bytes == null) {
      throw new IllegalArgumentException("the value is null");
    }
    ProducedTopic to = topic != null ? topic : client.topic(topicName.resolve(session));
    return new Message(to, key.key(session), bytes, resolved);
  }

  /** The value to send: the session's, else a generated payload of the configured size. */
  byte[] bytes(Message message) {
    return message.value() != null ? message.value() : payloads.of(size.getAsInt());
  }
}
