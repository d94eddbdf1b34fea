package io.fusillade.gatling.topic;

import io.fusillade.gatling.FusilladeAction;
import io.fusillade.gen.Seeds;
import io.fusillade.record.Status;
import io.fusillade.topic.KafkaErrors;
import io.fusillade.topic.Payloads;
import io.fusillade.topic.ProducedTopic;
import io.fusillade.topic.TopicClient;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.util.List;
import java.util.function.IntSupplier;
import org.apache.kafka.common.header.Header;

/**
 * Sends one stamped message for a virtual user without blocking Gatling's event loop: the Kafka
 * client appends it to a batch and returns ({@code max.block.ms=0}: a full buffer fails the request
 * at once), and the user resumes when the broker acknowledges. The callback, on the client's I/O
 * thread, only records and hands the user back.
 */
final class TopicSendAction extends FusilladeAction<byte[]> {
  private final TopicClient client;
  private final ProducedTopic topic;
  private final KeySource key;
  private final IntSupplier size;
  private final Payloads payloads;
  private final List<Header> headers;

  TopicSendAction(TopicSend send, TopicComponents components, Action next) {
    super(send.name(), components, next);
    this.client = components.client();
    String topicName = send.topic();
    // Prepared here, before injection: topic created or checked, metadata fetched.
    this.topic = client.topic(topicName);
    long seed = client.options().seed();
    this.key = send.key().bind(Seeds.derive(seed, "key"), topicName);
    this.size = send.size().bind(Seeds.derive(seed, "size"), topicName);
    this.payloads =
        new Payloads(Seeds.derive(seed, topicName), send.size().min(), send.size().max());
    this.headers = send.headers().isEmpty() ? null : send.headers();
  }

  /** The message's key for this session (null for none). */
  @Override
  protected byte[] resolve(Session session, String name) {
    return key.key(session);
  }

  @Override
  protected void send(Exchange exchange, byte[] keyBytes) {
    byte[] value = payloads.of(size.getAsInt());
    client.send(
        topic,
        keyBytes,
        value,
        headers,
        exchange.startNanos(),
        (endNanos, error) -> {
          if (error == null) {
            exchange.bytes(value.length);
            exchange.end(endNanos, Status.OK, null);
          } else {
            exchange.end(endNanos, Status.KO, KafkaErrors.reason(error));
          }
        });
  }
}
