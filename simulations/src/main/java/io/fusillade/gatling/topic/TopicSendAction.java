package io.fusillade.gatling.topic;

import io.fusillade.gatling.FusilladeAction;
import io.fusillade.gatling.ResponseReporter;
import io.fusillade.gen.Seeds;
import io.fusillade.record.RequestChannel;
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
final class TopicSendAction extends FusilladeAction {
  private final TopicClient client;
  private final ProducedTopic topic;
  private final KeySource key;
  private final IntSupplier size;
  private final Payloads payloads;
  private final List<Header> headers;
  private final ResponseReporter reporter;
  private final RequestChannel channel;
  private final Action next;

  TopicSendAction(
      String name,
      String topicName,
      KeySource key,
      SizeSource size,
      List<Header> headers,
      TopicComponents components,
      Action next) {
    super(name);
    this.client = components.client();
    // Prepared here, before injection: topic created or checked, metadata fetched.
    this.topic = client.topic(topicName);
    long seed = client.options().seed();
    this.key = key.bind(Seeds.derive(seed, "key"), topicName);
    this.size = size.bind(Seeds.derive(seed, "size"), topicName);
    this.payloads = new Payloads(Seeds.derive(seed, topicName), size.min(), size.max());
    this.headers = headers.isEmpty() ? null : headers;
    this.channel = components.recorder().request(name);
    this.reporter = new ResponseReporter(components.core(), channel);
    this.next = next;
  }

  @Override
  public void execute(Session session) {
    ResponseReporter.Start start = reporter.start();
    byte[] keyBytes;
    try {
      keyBytes = key.key(session);
    } catch (IllegalArgumentException e) {
      reporter.crash(session, start, e.getMessage());
      next.$bang(session.markAsFailed());
      return;
    }
    byte[] value = payloads.of(size.getAsInt());
    client.send(
        topic,
        keyBytes,
        value,
        headers,
        start.nanos(),
        (endNanos, error) -> {
          if (error == null) {
            channel.bytes(value.length);
            reporter.report(session, start, endNanos, Status.OK, null);
            next.$bang(session);
          } else {
            reporter.report(session, start, endNanos, Status.KO, KafkaErrors.reason(error));
            next.$bang(session.markAsFailed());
          }
        });
  }
}
