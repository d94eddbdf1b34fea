package io.fusillade.gatling.topic;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.FusilladeAction;
import io.fusillade.gatling.check.Checks;
import io.fusillade.gatling.check.Saves;
import io.fusillade.gen.Seeds;
import io.fusillade.record.Status;
import io.fusillade.topic.KafkaErrors;
import io.fusillade.topic.Payloads;
import io.fusillade.topic.ProducedTopic;
import io.fusillade.topic.SendCompletion;
import io.fusillade.topic.TopicClient;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Sends one stamped message for a virtual user without blocking Gatling's event loop: the Kafka
 * client appends it to a batch and returns ({@code max.block.ms=0}: a full buffer fails the request
 * at once), and the user resumes when the broker acknowledges. The callback, on the client's I/O
 * thread, only records and hands the user back.
 */
final class TopicSendAction extends FusilladeAction<TopicSendAction.Message> {
  private final TopicClient client;
  private final ProducedTopic topic; // null when the topic's name comes from the session
  private final Expression<String> topicName;
  private final KeySource key;
  private final IntSupplier size;
  private final Payloads payloads;
  private final Expression<byte[]> value;
  private final List<Map.Entry<String, Expression<byte[]>>> headers;
  private final Checks<TopicAck> checks;
  private final boolean readsFailure;

  /** One message as this session sends it. */
  record Message(ProducedTopic topic, byte[] key, byte[] value, List<Header> headers) {}

  TopicSendAction(TopicSend send, TopicComponents components, Action next) {
    super(send.name(), components, next);
    this.client = components.client();
    String topicName = send.topic();
    this.topicName = Expression.text(topicName);
    // Prepared here, before injection: topic created or checked, metadata fetched. A name from
    // the session is looked up per message: declared topics are prepared before the load.
    this.topic = this.topicName.isConstant() ? client.topic(topicName) : null;
    long seed = client.options().seed();
    this.key = send.key().bind(Seeds.derive(seed, "key"), topicName);
    this.size = send.size().bind(Seeds.derive(seed, "size"), topicName);
    // generated values only when the session gives none
    this.payloads =
        send.value() != null
            ? null
            : new Payloads(Seeds.derive(seed, topicName), send.size().min(), send.size().max());
    this.value = send.value();
    this.headers = send.headers();
    this.checks = Checks.<TopicAck>none().and(send.checks());
    this.readsFailure = checks.needs().contains(TopicChecks.ERROR);
  }

  /** The message's key, value and headers for this session. */
  @Override
  protected Message resolve(Session session, String name) {
    List<Header> resolved = null;
    if (!headers.isEmpty()) {
      resolved = new ArrayList<>(headers.size());
      for (Map.Entry<String, Expression<byte[]>> h : headers) {
        resolved.add(new RecordHeader(h.getKey(), h.getValue().resolve(session)));
      }
    }
    byte[] bytes = value == null ? null : value.resolve(session);
    if (value != null && bytes == null) {
      throw new IllegalArgumentException("the value is null");
    }
    ProducedTopic to = topic != null ? topic : client.topic(topicName.resolve(session));
    return new Message(to, key.key(session), bytes, resolved);
  }

  @Override
  protected void send(Exchange exchange, Message message) {
    byte[] bytes = message.value() != null ? message.value() : payloads.of(size.getAsInt());
    client.send(
        message.topic(),
        message.key(),
        bytes,
        message.headers(),
        exchange.startNanos(),
        new SendCompletion() {
          @Override
          public void completed(long endNanos, Exception error) {
            completed(endNanos, error, -1, -1);
          }

          @Override
          public void completed(long endNanos, Exception error, int partition, long offset) {
            if (error == null) {
              exchange.bytes(bytes.length);
            }
            if (checks.isEmpty()) {
              exchange.end(
                  endNanos,
                  error == null ? Status.OK : Status.KO,
                  error == null ? null : KafkaErrors.reason(error));
              return;
            }
            TopicAck ack =
                new TopicAck(partition, offset, error == null ? null : KafkaErrors.reason(error));
            if (error != null && !readsFailure) {
              exchange.end(endNanos, Status.KO, ack.error());
              return;
            }
            Saves saves = new Saves();
            String reason = checks.verify(ack, exchange.session(), saves);
            exchange.end(
                endNanos,
                reason == null ? Status.OK : Status.KO,
                reason,
                reason == null ? saves.applyTo(exchange.session()) : exchange.session());
          }
        });
  }
}
