package io.fusillade.gatling.kafka;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.FusilladeAction;
import io.fusillade.record.Injected;
import io.fusillade.record.Status;
import io.fusillade.topic.KafkaErrors;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Sends one of {@link TopicFaults}' writes with the kind's own producer, without blocking. */
final class InjectedSendAction extends FusilladeAction<Void> {
  private final String kind;
  private final String topic;
  private final byte[] value;
  private final KafkaProducer<byte[], byte[]> producer;

  InjectedSendAction(String kind, String topic, KafkaComponents components, Action next) {
    super(Expression.constant(Injected.name(kind)), components, next);
    this.kind = kind;
    this.topic = TopicFaults.topic(kind, topic);
    this.value = TopicFaults.value(kind);
    this.producer = components.injectedProducer(kind);
    if (!TopicFaults.MISSING_TOPIC.equals(kind)) {
      TopicFaults.fetchMetadata(producer, this.topic);
    }
  }

  @Override
  protected Void resolve(Session session, String name) {
    return null;
  }

  @Override
  protected void send(Exchange exchange, Void nothing) {
    try {
      producer.send(
          new ProducerRecord<>(topic, value),
          (metadata, error) -> {
            if (error == null) {
              exchange.bytes(value.length);
              exchange.end(System.nanoTime(), Status.OK, null);
            } else {
              exchange.end(System.nanoTime(), Status.KO, reason(error));
            }
          });
    } catch (RuntimeException e) {
      exchange.end(System.nanoTime(), Status.KO, reason(e));
    }
  }

  private String reason(Throwable error) {
    String reason = KafkaErrors.reason(error);
    // KafkaErrors reads a metadata timeout as an unreachable broker; here the topic is missing
    return TopicFaults.MISSING_TOPIC.equals(kind) && reason.startsWith("metadata timeout")
        ? "metadata timeout: topic " + topic + " not present in metadata"
        : reason;
  }
}
