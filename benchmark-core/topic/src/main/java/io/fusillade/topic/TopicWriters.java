package io.fusillade.topic;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.header.Header;

/**
 * A topic's own writers ({@link TopicSpec#producers()}, the seed's "streams"): {@code n} Kafka
 * producers, each one stream of the delivery verifier (producer index 0 to n-1), taking the topic's
 * sends in turn. In turn, not by thread: each writer sends exactly its share of the topic's rate,
 * whatever the number of Gatling's threads, which is what "800k messages over 10 streams" means.
 *
 * <p>Cost per send over the run's shared producer: one atomic increment and the chosen writer's
 * lock (see {@link TopicProducer}).
 */
final class TopicWriters implements AutoCloseable {
  private final TopicProducer[] writers;
  private final AtomicLong turn = new AtomicLong();

  private TopicWriters(TopicProducer[] writers) {
    this.writers = writers;
  }

  /**
   * Opens this injector's of the topic's {@code spec.producers()} producers (all of them for an
   * injector alone; of several, those numbered {@link TopicShare#global} from its index) with the
   * run's producer properties, each with a client id of its own ({@code <client.id>-<topic>-<i>},
   * {@code i} its test-wide number; a {@code transactional.id} gets the same suffix), and waits for
   * the topic's metadata in each.
   */
  static TopicWriters open(
      Map<String, Object> properties, TopicSpec spec, TopicShare share, Duration timeout) {
    TopicProducer[] writers = new TopicProducer[share.ownOf(spec.producers())];
    try {
      for (int local = 0; local < writers.length; local++) {
        int i = share.global(local);
        String suffix = "-" + spec.name() + "-" + i;
        Map<String, Object> own = new HashMap<>(properties);
        own.put("client.id", properties.getOrDefault("client.id", "fusillade") + suffix);
        Object transactional = properties.get("transactional.id");
        if (transactional != null) {
          own.put("transactional.id", transactional + suffix);
        }
        writers[local] = new TopicProducer(own, i);
        writers[local].awaitMetadata(spec.name(), timeout);
      }
    } catch (RuntimeException e) {
      new TopicWriters(writers).close(Duration.ZERO);
      throw e;
    }
    return new TopicWriters(writers);
  }

  /** How many writers. */
  int count() {
    return writers.length;
  }

  /** Sends through the next writer in turn (see {@link TopicProducer#send}). */
  void send(
      ProducedTopic topic,
      byte[] key,
      byte[] value,
      List<Header> headers,
      long startNanos,
      SendCompletion done) {
    int next = (int) Long.remainderUnsigned(turn.getAndIncrement(), writers.length);
    writers[next].send(topic, key, value, headers, startNanos, done);
  }

  /** Flushes and closes every writer, all of them within {@code timeout} together. */
  void close(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (TopicProducer w : writers) {
      if (w != null) {
        w.close(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
      }
    }
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(5));
  }
}
