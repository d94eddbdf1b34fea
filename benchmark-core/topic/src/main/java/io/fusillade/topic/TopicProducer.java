package io.fusillade.topic;

import io.fusillade.FusilladeException;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;

/**
 * Sends stamped messages without blocking the calling thread.
 *
 * <p>Each sending thread is its own producer stream (see {@link MessageStamp#producerId()}): it
 * numbers its messages per partition, so sequence numbers are dense and in send order, which the
 * {@link DeliveryVerifier} relies on. Fusillade therefore picks the partition itself, as Kafka's
 * default partitioner would: by the murmur2 hash of the key, or, for messages without a key, one
 * partition per thread until a batch's worth of bytes went to it (sticky partitioning).
 *
 * <p>A producer that is one stream (a topic's {@code producers:}, {@link TopicSpec#producers()})
 * numbers every message under its one index, whichever thread sends it: numbering and handing to
 * the client happen under the stream's lock, so its sequence numbers stay dense and in send order.
 * The lock is held for the client's {@code send}, which only appends to a batch (it blocks only
 * when the client's buffer is full, as every thread's send would).
 *
 * <p>The completion runs on the Kafka client's I/O thread: it must only record and hand over.
 */
final class TopicProducer implements AutoCloseable {
  private final KafkaProducer<byte[], byte[]> producer;
  private final int batchBytes;
  private final AtomicInteger threads = new AtomicInteger();
  private final ThreadLocal<Sender> senders = ThreadLocal.withInitial(Sender::new);
  private final Sender stream; // null: a stream per sending thread
  private final TopicShare share; // numbers the sending threads apart from other injectors'

  /** A producer whose every sending thread is a stream of its own. */
  TopicProducer(Map<String, Object> properties) {
    this(properties, -1, TopicShare.ALONE);
  }

  /**
   * A producer whose every sending thread is a stream of its own, numbered test-wide ({@link
   * TopicShare#global}): thread k of injector I is stream k*N + I.
   */
  TopicProducer(Map<String, Object> properties, TopicShare share) {
    this(properties, -1, share);
  }

  /**
   * A producer that is stream {@code index} whichever thread sends through it, or, for -1, one
   * whose every sending thread is a stream of its own.
   */
  TopicProducer(Map<String, Object> properties, int index) {
    this(properties, index, TopicShare.ALONE);
  }

  private TopicProducer(Map<String, Object> properties, int index, TopicShare share) {
    this.share = share;
    this.stream = index < 0 ? null : new Sender(index);
    this.producer =
        new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    Object batch = properties.get("batch.size");
    this.batchBytes = batch == null ? 16384 : Math.max(1, Integer.parseInt(batch.toString()));
  }

  /**
   * A metric of the producer's own ({@code producer-metrics} group), such as {@code
   * produce-throttle-time-avg}: the time the brokers held its requests back for a quota.
   *
   * @param name the metric's name
   * @return its value, or NaN when the client has none of that name or no value yet
   */
  double metric(String name) {
    for (Map.Entry<org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric> e :
        producer.metrics().entrySet()) {
      if (e.getKey().name().equals(name) && e.getKey().group().equals("producer-metrics")) {
        return e.getValue().metricValue() instanceof Number n ? n.doubleValue() : Double.NaN;
      }
    }
    return Double.NaN;
  }

  /**
   * Fetches the topic's metadata so that sends never wait for it ({@code max.block.ms} may be 0).
   *
   * @return the partition count the producer sees
   */
  int awaitMetadata(String topic, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        List<PartitionInfo> partitions = producer.partitionsFor(topic);
        if (!partitions.isEmpty()) {
          return partitions.size();
        }
      } catch (org.apache.kafka.common.errors.TimeoutException notYet) {
        // each call asks for a metadata update; try again
      }
      if (System.nanoTime() > deadline) {
        throw new FusilladeException(
            "the producer got no metadata for topic '" + topic + "' within " + timeout);
      }
      try {
        TimeUnit.MILLISECONDS.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new FusilladeException("interrupted while waiting for metadata of " + topic, e);
      }
    }
  }

  /**
   * Sends one message; {@code done} is called exactly once, from the client's I/O thread or, when
   * the send fails at once (buffer full), from this thread.
   *
   * @param key the key, or null
   * @param value the value (shared, never modified)
   * @param headers extra headers, or null
   * @param startNanos the send time written in the stamp
   */
  void send(
      ProducedTopic topic,
      byte[] key,
      byte[] value,
      List<Header> headers,
      long startNanos,
      SendCompletion done) {
    if (stream == null) {
      send(senders.get(), topic, key, value, headers, startNanos, done);
    } else {
      synchronized (stream) {
        send(stream, topic, key, value, headers, startNanos, done);
      }
    }
  }

  private void send(
      Sender sender,
      ProducedTopic topic,
      byte[] key,
      byte[] value,
      List<Header> headers,
      long startNanos,
      SendCompletion done) {
    Sender.Lane lane = sender.lane(topic);
    int partition;
    if (key != null) {
      partition = Utils.toPositive(Utils.murmur2(key)) % topic.partitions();
    } else {
      partition = lane.sticky(value.length);
    }
    long sequence = lane.sequences[partition]++;
    DeliveryVerifier.Stream stream = lane.stream(partition);
    RecordHeaders all = new RecordHeaders();
    if (headers != null) {
      headers.forEach(all::add);
    }
    all.add(
        new RecordHeader(
            MessageStamp.HEADER, MessageStamp.encode(lane.producerId, sequence, startNanos)));
    ProducerRecord<byte[], byte[]> record =
        new ProducerRecord<>(topic.name(), partition, null, key, value, all);
    int size = value.length;
    try {
      producer.send(
          record,
          (metadata, error) -> {
            long end = System.nanoTime();
            if (error == null) {
              // Noted before done records the request: a write the record's flush counted is
              // always below the cut that flush takes after its swap (TopicClient.State#noteCut,
              // FlushListener#requestsEnd), never above.
              stream.acknowledged(sequence);
              topic.messages().increment();
              topic.bytes().add(size);
            }
            long offset = error == null && metadata != null ? metadata.offset() : -1;
            done.completed(end, error, partition, offset);
          });
    } catch (RuntimeException e) {
      // Not an ApiException (those go to the callback): a closed producer, a bad record.
      done.completed(System.nanoTime(), e, partition, -1);
    }
  }

  /** Waits for what is in flight, at most {@code timeout}, then fails the rest. */
  void close(Duration timeout) {
    producer.close(timeout);
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(10));
  }

  /** One stream's numbering: a sending thread's, or a single-stream producer's. */
  private final class Sender {
    final int index;
    final Map<ProducedTopic, Lane> lanes = new IdentityHashMap<>();

    Sender() {
      this(share.global(threads.getAndIncrement()));
    }

    Sender(int index) {
      this.index = index;
    }

    Lane lane(ProducedTopic topic) {
      Lane lane = lanes.get(topic);
      if (lane == null) {
        lane = new Lane(topic, topic.verifier().producerId(index));
        lanes.put(topic, lane);
      }
      return lane;
    }

    final class Lane {
      final ProducedTopic topic;
      final long producerId;
      final long[] sequences;
      final DeliveryVerifier.Stream[] streams;
      int current;
      int bytesInCurrent;

      Lane(ProducedTopic topic, long producerId) {
        this.topic = topic;
        this.producerId = producerId;
        this.sequences = new long[topic.partitions()];
        this.streams = new DeliveryVerifier.Stream[topic.partitions()];
        this.current = ThreadLocalRandom.current().nextInt(topic.partitions());
      }

      DeliveryVerifier.Stream stream(int partition) {
        DeliveryVerifier.Stream s = streams[partition];
        if (s == null) {
          s = topic.verifier().stream(producerId, partition);
          streams[partition] = s;
        }
        return s;
      }

      int sticky(int size) {
        if (bytesInCurrent >= batchBytes) {
          current = (current + 1) % topic.partitions();
          bytesInCurrent = 0;
        }
        bytesInCurrent += size;
        return current;
      }
    }
  }
}
