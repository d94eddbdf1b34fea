package io.fusillade.gatling.kafka;

import io.fusillade.gatling.ClockOffset;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.InjectorShare;
import io.fusillade.gatling.SessionlessComponents;
import io.fusillade.record.RunRecorder;
import io.fusillade.topic.TopicClient;
import io.fusillade.topic.TopicClientOptions;
import io.fusillade.topic.TopicShare;
import io.gatling.core.CoreComponents;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topic protocol's per-run state: the {@link TopicClient} (producer, consumer groups, lag
 * sampling, verifiers), opened before injection starts and closed at the end of the run.
 */
public final class KafkaComponents extends SessionlessComponents implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaComponents.class);

  private final KafkaProtocol protocol;
  private final TopicClient client;
  private final Map<String, KafkaProducer<byte[], byte[]>> injected = new ConcurrentHashMap<>();
  // One reader per reply topic and correlation header, whatever the number of users waiting.
  private final Map<String, ReplyConsumer> replies = new ConcurrentHashMap<>();
  // One group consumer per consumed topic, whatever the number of users reading.
  private final Map<String, MessageFeed> feeds = new ConcurrentHashMap<>();

  KafkaComponents(KafkaProtocol protocol, CoreComponents core, RunRecorder recorder) {
    super(core, recorder);
    this.protocol = protocol;
    // Topics checked, metadata fetched, consumers assigned: before the first message is sent.
    this.client = TopicClient.open(shared(protocol.options()), recorder);
  }

  /**
   * The options of this injector's part of a test several run together ({@code fusillade run
   * --injectors N}, {@link InjectorShare}): its share of each topic's writers and readers, a run
   * prefix every injector derives alike from the seed and the common start, and the clock they
   * share ({@link FusilladeRun#referenceClock()}). Alone, the options as they are.
   */
  private static TopicClientOptions shared(TopicClientOptions options) {
    InjectorShare injectors = InjectorShare.current();
    if (injectors.alone()) {
      return options;
    }
    long start = injectors.startAt() == null ? 0 : injectors.startAt().toEpochMilli();
    return options.withShare(
        TopicShare.of(
            injectors.count(),
            injectors.index(),
            options.seed() * 31 + start,
            FusilladeRun.referenceClock().map(ClockOffset::offsetMicros).orElse(0L)));
  }

  public TopicClient client() {
    return client;
  }

  /** The producer of an injected kind ({@link TopicFaults}), opened at its first use. */
  KafkaProducer<byte[], byte[]> injectedProducer(String kind) {
    return injected.computeIfAbsent(
        kind, k -> TopicFaults.producer(k, protocol.options().producerProperties()));
  }

  /**
   * The reader of a reply topic's messages by {@code header}, opened at its first use (when a
   * request-reply action is built, before injection), the topic created or checked first.
   */
  ReplyConsumer replies(String topic, String header) {
    return replies.computeIfAbsent(
        topic + "\u0000" + header,
        k -> {
          client.topic(topic);
          return new ReplyConsumer(protocol.options().consumerProperties(), topic, header);
        });
  }

  /**
   * The reader that hands a topic's messages to consume actions, one per topic and group (null: the
   * run's own), opened at its first use (when the action is built, before injection), the topic
   * created or checked first.
   */
  MessageFeed feed(String topic, String group) {
    return feeds.computeIfAbsent(
        topic + "\u0000" + (group == null ? "" : group),
        k -> {
          client.topic(topic);
          return new MessageFeed(
              protocol.options().consumerProperties(),
              topic,
              group,
              protocol.options().readyTimeout());
        });
  }

  /**
   * Flushes the producer and drains the consumers; the run's end hooks ({@link
   * io.fusillade.gatling.FusilladeRun#onEnd}) run after, with the drained client.
   */
  @Override
  public void close() {
    for (ReplyConsumer reader : replies.values()) {
      if (reader.unmatched() > 0) {
        LOG.info(
            "{} replies on {} matched no waiting request (late, or another run's)",
            reader.unmatched(),
            reader.topic());
      }
      reader.close();
    }
    for (MessageFeed feed : feeds.values()) {
      feed.close();
    }
    for (KafkaProducer<byte[], byte[]> producer : injected.values()) {
      try {
        producer.close(Duration.ofSeconds(1));
      } catch (RuntimeException e) {
        LOG.warn("An injected writes' producer did not close: {}", e.toString());
      }
    }
    client.close();
  }

  @Override
  public String toString() {
    return "KafkaComponents[" + protocol.options() + "]";
  }
}
