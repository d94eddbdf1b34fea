package io.fusillade.gatling.kafka;

import io.fusillade.topic.KafkaErrors;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one reader of a topic (and group) for a protocol's consume actions: a consumer in a group of
 * its own (one per run, so it reads what the run's writers send, from the end of the topic when it
 * joined), or in the group the consume names (where that group committed, sharing its partitions
 * with the group's other members), whose messages go to the virtual users waiting for one, first
 * come first served, each at most once. A thread polls, hands out, and fails the waits whose
 * timeout passed; while more than {@link #BUFFERED} messages wait for a reader, it pauses its
 * partitions (the broker keeps the rest).
 */
final class MessageFeed implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MessageFeed.class);
  private static final Duration POLL = Duration.ofMillis(10);

  /** Messages read ahead of the virtual users at most (more stay in the topic). */
  static final int BUFFERED = 1000;

  /** A virtual user waiting for a message. */
  interface Waiter {
    /** The message, read at {@code arrivedNanos}; runs on the feed's thread. */
    void received(ConsumerRecord<byte[], byte[]> message, long arrivedNanos);

    /**
     * Nothing came: its deadline passed ({@code reason} null), or the feed stopped ({@code reason}
     * says why: the run ended, or the reader failed). Runs on the feed's thread, or on the caller's
     * of {@link #next} when the feed had already stopped.
     */
    void failed(long nowNanos, String reason);
  }

  private record Waiting(long deadlineNanos, Waiter waiter) {}

  private final String topic;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Queue<Waiting> waiting = new ConcurrentLinkedQueue<>();
  private final ArrayDeque<ConsumerRecord<byte[], byte[]>> buffer = new ArrayDeque<>();
  private final Thread thread;
  private volatile boolean closing;
  private volatile String stopped; // why the thread ended; null while it reads
  private boolean paused;

  /**
   * Joins {@code group} (null: a new group of its own) on {@code topic} and waits for its
   * partitions and their positions (at most {@code ready}), so that what is sent after it opens is
   * read; then starts its thread.
   */
  MessageFeed(Map<String, Object> consumerProperties, String topic, String group, Duration ready) {
    this.topic = topic;
    Map<String, Object> properties = new HashMap<>(consumerProperties);
    properties.put(
        "group.id",
        group != null
            ? group
            : "fusillade-consume-"
                + topic
                + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
    properties.remove("group.instance.id");
    properties.putIfAbsent("client.id", "fusillade-consume-" + topic);
    this.consumer =
        new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    try {
      consumer.subscribe(java.util.List.of(topic));
      long deadline = System.nanoTime() + ready.toNanos();
      while (consumer.assignment().isEmpty()) {
        if (System.nanoTime() - deadline > 0) {
          throw new IllegalStateException(
              "the consumer of " + topic + " got no partition within " + ready.toSeconds() + " s");
        }
        consumer.poll(Duration.ofMillis(100)).forEach(buffer::add);
      }
      for (TopicPartition p : consumer.assignment()) {
        consumer.position(p, ready); // taken now, before the first message is sent
      }
    } catch (RuntimeException e) {
      consumer.close(Duration.ZERO);
      throw e;
    }
    this.thread = new Thread(this::run, "fusillade-consume-" + topic);
    thread.setDaemon(true);
    thread.start();
  }

  /** The topic this feed reads. */
  String topic() {
    return topic;
  }

  /**
   * Waits for the next message not yet handed out, until {@code deadlineNanos}; at once fails when
   * the feed has stopped (a wait added then would be expired by no one).
   */
  void next(long deadlineNanos, Waiter waiter) {
    waiting.add(new Waiting(deadlineNanos, waiter));
    if (stopped != null) {
      expire(Long.MAX_VALUE, stopped);
    }
  }

  private void run() {
    try {
      while (!closing) {
        handOut();
        if (buffer.size() >= BUFFERED && !paused) {
          consumer.pause(consumer.assignment());
          paused = true;
        } else if (buffer.size() < BUFFERED && paused) {
          consumer.resume(consumer.assignment());
          paused = false;
        }
        consumer.poll(POLL).forEach(buffer::add);
        handOut();
        expire(System.nanoTime(), null);
      }
      stopped = "the run ended before a message of " + topic + " came";
    } catch (WakeupException e) {
      stopped = "the run ended before a message of " + topic + " came";
    } catch (RuntimeException e) {
      stopped = "the reader of " + topic + " stopped: " + KafkaErrors.reason(e);
      LOG.warn("The consumer of {} stopped: {}", topic, e.toString());
    } finally {
      if (stopped == null) {
        stopped = "the reader of " + topic + " stopped";
      }
      // Whoever still waits is told now, not left hanging.
      expire(Long.MAX_VALUE, stopped);
    }
  }

  /** Gives each waiting user the next message, in order, while both remain. */
  private void handOut() {
    while (!buffer.isEmpty()) {
      Waiting w = waiting.poll();
      if (w == null) {
        return;
      }
      ConsumerRecord<byte[], byte[]> message = buffer.poll();
      try {
        w.waiter().received(message, System.nanoTime());
      } catch (RuntimeException e) {
        LOG.warn("A consumed message's handler failed: {}", e.toString());
      }
    }
  }

  /**
   * Fails the waits whose deadline passed (all of them, for {@code reason}, when {@code now} is the
   * maximum). remove(w) decides who fails a wait: the feed's thread and a late {@link #next} may
   * both get here once the feed stops.
   */
  private void expire(long now, String reason) {
    for (Waiting w : waiting) {
      if ((now == Long.MAX_VALUE || w.deadlineNanos() - now <= 0) && waiting.remove(w)) {
        try {
          w.waiter().failed(System.nanoTime(), now == Long.MAX_VALUE ? reason : null);
        } catch (RuntimeException e) {
          LOG.warn("A timeout's handler failed: {}", e.toString());
        }
      }
    }
  }

  @Override
  public void close() {
    closing = true;
    consumer.wakeup();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      consumer.close(Duration.ofSeconds(1));
    } catch (RuntimeException e) {
      LOG.warn("The consumer of {} did not close: {}", topic, e.toString());
    }
  }
}
