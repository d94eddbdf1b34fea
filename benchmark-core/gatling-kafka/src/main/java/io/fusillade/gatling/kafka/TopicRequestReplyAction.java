package io.fusillade.gatling.kafka;

import io.fusillade.gatling.FusilladeAction;
import io.fusillade.gatling.check.Checks;
import io.fusillade.gatling.check.Saves;
import io.fusillade.record.Status;
import io.fusillade.topic.KafkaErrors;
import io.fusillade.topic.SendCompletion;
import io.fusillade.topic.TopicClient;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Sends a message with a correlation id and hands the virtual user on when the reply with that id
 * arrives on the reply topic ({@link ReplyConsumer}, one per topic), or when its timeout passes.
 * Latency and timeout both count from the request's due time (its entry, or the pacer's due time
 * when it came late), so a slow injector does not hide a slow responder. A send the broker refused
 * is KO with the producer's reason, without waiting.
 */
final class TopicRequestReplyAction extends FusilladeAction<TopicRequestReplyAction.Request> {
  private final TopicClient client;
  private final MessageSource messages;
  private final ReplyConsumer replies;
  private final String header;
  private final long timeoutNanos;
  private final String timeoutReason;
  private final Checks<TopicMessage> checks;

  /** One request as a session sends it: its message and correlation id. */
  record Request(MessageSource.Message message, String id) {}

  TopicRequestReplyAction(
      TopicSend send, TopicReply reply, KafkaComponents components, Action next) {
    super(send.name(), components, next);
    this.client = components.client();
    this.messages = new MessageSource(send, client);
    // Opened now, before injection: its positions are taken before the first request.
    this.replies = components.replies(reply.topic(), reply.header());
    this.timeoutNanos = reply.timeout().toNanos();
    this.timeoutReason =
        "no reply on " + reply.topic() + " within " + reply.timeout().toMillis() + " ms";
    this.checks = Checks.<TopicMessage>none().and(reply.checks());
    this.header = reply.header();
  }

  @Override
  protected Request resolve(Session session, String name) {
    String id = replies.nextId();
    Header correlation = new RecordHeader(header, id.getBytes(StandardCharsets.UTF_8));
    return new Request(messages.resolve(session, correlation), id);
  }

  @Override
  protected void send(Exchange exchange, Request request) {
    long start = exchange.startNanos();
    byte[] bytes = messages.bytes(request.message());
    // Waiting before the send: a reply may come before the acknowledgement.
    replies.await(
        request.id(),
        start + timeoutNanos,
        new ReplyConsumer.Waiter() {
          @Override
          public void replied(ConsumerRecord<byte[], byte[]> reply, long arrivedNanos) {
            TopicMessage message = message(reply, arrivedNanos - start);
            exchange.bytes(reply.value() == null ? 0 : reply.value().length);
            if (checks.isEmpty()) {
              exchange.end(arrivedNanos, Status.OK, null);
              return;
            }
            Saves saves = new Saves();
            String reason = checks.verify(message, exchange.session(), saves);
            exchange.end(
                arrivedNanos,
                reason == null ? Status.OK : Status.KO,
                reason,
                reason == null ? saves.applyTo(exchange.session()) : exchange.session());
          }

          @Override
          public void failed(long nowNanos, String reason) {
            exchange.end(nowNanos, Status.KO, reason == null ? timeoutReason : reason);
          }
        });
    SendCompletion sent =
        (endNanos, error) -> {
          if (error == null) {
            exchange.bytes(bytes.length);
          } else if (replies.cancel(request.id())) {
            exchange.end(endNanos, Status.KO, KafkaErrors.reason(error));
          }
        };
    client.send(
        request.message().topic(),
        request.message().key(),
        bytes,
        request.message().headers(),
        start,
        sent);
  }

  /** The reply as its checks read it. */
  static TopicMessage message(ConsumerRecord<byte[], byte[]> record, long latencyNanos) {
    Map<String, byte[]> headers = new LinkedHashMap<>();
    for (Header h : record.headers()) {
      headers.put(h.key(), h.value());
    }
    return new TopicMessage(
        record.topic(),
        record.partition(),
        record.offset(),
        record.key(),
        record.value(),
        headers,
        latencyNanos);
  }
}
