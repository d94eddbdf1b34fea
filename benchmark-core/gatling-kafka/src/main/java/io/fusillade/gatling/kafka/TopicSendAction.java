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

/**
 * Sends one stamped message for a virtual user without blocking Gatling's event loop: the Kafka
 * client appends it to a batch and returns ({@code max.block.ms=0}: a full buffer fails the request
 * at once), and the user resumes when the broker acknowledges. The callback, on the client's I/O
 * thread, only records and hands the user back.
 */
final class TopicSendAction extends FusilladeAction<MessageSource.Message> {
  private final TopicClient client;
  private final MessageSource messages;
  private final Checks<TopicAck> checks;
  private final boolean readsFailure;

  TopicSendAction(TopicSend send, KafkaComponents components, Action next) {
    super(send.name(), components, next);
    this.client = components.client();
    this.messages = new MessageSource(send, client);
    this.checks = Checks.<TopicAck>none().and(send.checks());
    this.readsFailure = checks.needs().contains(TopicChecks.ERROR);
  }

  /** The message's key, value and headers for this session. */
  @Override
  protected MessageSource.Message resolve(Session session, String name) {
    return messages.resolve(session, null);
  }

  @Override
  protected void send(Exchange exchange, MessageSource.Message message) {
    byte[] bytes = messages.bytes(message);
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
