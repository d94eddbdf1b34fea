package io.fusillade.gatling.kafka;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.FusilladeAction;
import io.fusillade.gatling.check.Checks;
import io.fusillade.gatling.check.Saves;
import io.fusillade.record.Status;
import io.fusillade.topic.MessageStamp;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Hands the virtual user on with the next message of its topic ({@link MessageFeed}, one per topic)
 * or, when none comes within the timeout from the request's due time, KO. The request's latency is
 * the wait; the message's end-to-end latency ({@link KafkaDsl#messageLatency()}) runs from its
 * stamp's send time, for a message this run sent (another's stamp is of another clock).
 */
final class TopicConsumeAction extends FusilladeAction<Void> {
  private final MessageFeed feed;
  private final long runPrefix;
  private final long clockBaseNanos;
  private final long timeoutNanos;
  private final String timeoutReason;
  private final Checks<TopicMessage> checks;

  TopicConsumeAction(
      Expression<String> name, TopicReply consume, KafkaComponents components, Action next) {
    super(name, components, next);
    // The producer's stamps carry this prefix in their high half: this run's messages.
    this.runPrefix = components.client().topic(consume.topic()).verifier().producerId(0) >>> 32;
    this.clockBaseNanos = components.client().options().share().clockBaseNanos();
    this.feed = components.feed(consume.topic(), consume.group());
    this.timeoutNanos = consume.timeout().toNanos();
    this.timeoutReason =
        "no message on " + consume.topic() + " within " + consume.timeout().toMillis() + " ms";
    this.checks = Checks.<TopicMessage>none().and(consume.checks());
  }

  @Override
  protected Void resolve(Session session, String name) {
    return null;
  }

  @Override
  protected void send(Exchange exchange, Void request) {
    feed.next(
        exchange.startNanos() + timeoutNanos,
        new MessageFeed.Waiter() {
          @Override
          public void received(ConsumerRecord<byte[], byte[]> record, long arrivedNanos) {
            exchange.bytes(record.value() == null ? 0 : record.value().length);
            TopicMessage message =
                TopicRequestReplyAction.message(record, endToEnd(record, arrivedNanos));
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
  }

  /** From the message's send to its arrival, or -1 for a message this run did not send. */
  private long endToEnd(ConsumerRecord<byte[], byte[]> record, long arrivedNanos) {
    Header h = record.headers().lastHeader(MessageStamp.HEADER);
    MessageStamp stamp = h == null ? null : MessageStamp.decode(h.value());
    if (stamp == null || (stamp.producerId() >>> 32) != runPrefix) {
      return -1;
    }
    // on the test's reference clock when several injectors share it (the base is 0 alone)
    return arrivedNanos + clockBaseNanos - stamp.sendNanos();
  }
}
