package io.fusillade.gatling.kafka;

import io.fusillade.topic.KafkaErrors;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one reader of a reply topic for a protocol's request-reply actions: every virtual user's
 * request waits here by its correlation id, not in a consumer of its own. A thread polls every
 * partition of the topic (assigned, not in a group: no rebalance, no committed offsets), hands each
 * reply to the request with its id, and fails the requests whose timeout passed.
 *
 * <p>Its positions are taken at the end of each partition when it opens, before the first request
 * is sent: replies already in the topic (an earlier run's) are not read.
 */
final class ReplyConsumer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReplyConsumer.class);

  /** How long a poll waits, and so how late a timeout may be found. */
  private static final Duration POLL = Duration.ofMillis(10);

  /** What a waiting request is told: its reply, or that none came in time. */
  interface Waiter {
    /** The reply, received at {@code arrivedNanos}; runs on the consumer's thread. */
    void replied(ConsumerRecord<byte[], byte[]> reply, long arrivedNanos);

    /**
     * No reply: its deadline passed ({@code reason} null), or the consumer stopped ({@code reason}
     * says why: the run ended, or the reader failed). Runs on the consumer's thread, or on the
     * caller's of {@link #await} when the consumer had already stopped.
     */
    void failed(long nowNanos, String reason);
  }

  private record Pending(long deadlineNanos, Waiter waiter) {}

  private final String topic;
  private final String header;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Map<String, Pending> pending = new ConcurrentHashMap<>();
  private final String prefix = Long.toHexString(ThreadLocalRandom.current().nextLong()) + "-";
  private final AtomicLong ids = new AtomicLong();
  private final AtomicLong unmatched = new AtomicLong();
  private final Thread thread;
  private volatile boolean closing;
  private volatile String stopped; // why the thread ended; null while it reads

  /**
   * Opens the consumer at the end of every partition of {@code topic} (which must exist) and starts
   * its thread.
   *
   * @param consumerProperties the protocol's consumer properties; group settings are dropped
   * @param header the header that carries the correlation id in requests and replies
   */
  ReplyConsumer(Map<String, Object> consumerProperties, String topic, String header) {
    this.topic = topic;
    this.header = header;
    Map<String, Object> properties = new HashMap<>(consumerProperties);
    properties.remove("group.id");
    properties.remove("group.instance.id");
    properties.remove("group.protocol");
    properties.remove("session.timeout.ms");
    properties.put("enable.auto.commit", "false");
    properties.putIfAbsent("client.id", "fusillade-replies-" + topic);
    this.consumer =
        new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    try {
      List<PartitionInfo> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30));
      if (partitions == null || partitions.isEmpty()) {
        throw new IllegalStateException("reply topic " + topic + " has no partitions");
      }
      List<TopicPartition> assigned =
          partitions.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(assigned);
      consumer.seekToEnd(assigned);
      for (TopicPartition p : assigned) {
        consumer.position(p, Duration.ofSeconds(30)); // now, not at the first poll
      }
    } catch (RuntimeException e) {
      consumer.close(Duration.ZERO);
      throw e;
    }
    this.thread = new Thread(this::run, "fusillade-replies-" + topic);
    thread.setDaemon(true);
    thread.start();
  }

  /** The topic this consumer reads. */
  String topic() {
    return topic;
  }

  /** A correlation id no other request of this run has. */
  String nextId() {
    return prefix + ids.incrementAndGet();
  }

  /** Waits for the reply to {@code id} until {@code deadlineNanos} ({@link System#nanoTime()}). */
  void await(String id, long deadlineNanos, Waiter waiter) {
    pending.put(id, new Pending(deadlineNanos, waiter));
    if (stopped != null) { // expired by no one else now
      expire(Long.MAX_VALUE, stopped);
    }
  }

  /** Stops waiting for {@code id}; true when it was still waiting (the caller now owns it). */
  boolean cancel(String id) {
    return pending.remove(id) != null;
  }

  /** Replies whose id no request was waiting for (late after a timeout, or another run's). */
  long unmatched() {
    return unmatched.get();
  }

  private void run() {
    try {
      while (!closing) {
        for (ConsumerRecord<byte[], byte[]> reply : consumer.poll(POLL)) {
          long arrived = System.nanoTime();
          Header h = reply.headers().lastHeader(header);
          Pending p =
              h == null || h.value() == null
                  ? null
                  : pending.remove(new String(h.value(), StandardCharsets.UTF_8));
          if (p == null) {
            unmatched.incrementAndGet();
          } else {
            deliver(p, reply, arrived);
          }
        }
        expire(System.nanoTime(), null);
      }
      stopped = "the run ended before the reply on " + topic + " came";
    } catch (WakeupException e) {
      stopped = "the run ended before the reply on " + topic + " came";
    } catch (RuntimeException e) {
      stopped = "the reader of reply topic " + topic + " stopped: " + KafkaErrors.reason(e);
      LOG.warn("The reply consumer of {} stopped: {}", topic, e.toString());
    } finally {
      if (stopped == null) {
        stopped = "the reader of reply topic " + topic + " stopped";
      }
      // Whoever still waits is told now, not left hanging.
      expire(Long.MAX_VALUE, stopped);
    }
  }

  private static void deliver(Pending p, ConsumerRecord<byte[], byte[]> reply, long arrived) {
    try {
      p.waiter().replied(reply, arrived);
    } catch (RuntimeException e) {
      LOG.warn("A reply's handler failed: {}", e.toString());
    }
  }

  /**
   * Fails the requests whose deadline passed (all of them when {@code now} is {@link
   * Long#MAX_VALUE}, for {@code reason}). A scan of every waiting request per poll: their number is
   * the requests in flight, a few thousand at most at the rates a reply topic serves.
   */
  private void expire(long now, String reason) {
    for (Iterator<Map.Entry<String, Pending>> it = pending.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Pending> e = it.next();
      if (now == Long.MAX_VALUE || e.getValue().deadlineNanos() - now <= 0) {
        // remove(key, value): a reply that took it meanwhile keeps it
        if (pending.remove(e.getKey(), e.getValue())) {
          try {
            e.getValue().waiter().failed(System.nanoTime(), now == Long.MAX_VALUE ? reason : null);
          } catch (RuntimeException ex) {
            LOG.warn("A timeout's handler failed: {}", ex.toString());
          }
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
      LOG.warn("The reply consumer of {} did not close: {}", topic, e.toString());
    }
  }
}
