package io.fusillade.topic;

import io.fusillade.FusilladeException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.BytesDeserializer;
import org.apache.kafka.common.utils.Bytes;

/**
 * Consume, transform, produce, exactly once: each poll's messages are copied (their stamps, and the
 * partition they came from, as headers; no payload) to an output topic by a transactional producer,
 * and the consumed offsets committed in the same Kafka transaction ({@code
 * sendOffsetsToTransaction}). A consumer resumes where the group's committed offsets say, which
 * only a committed transaction moves.
 *
 * <p>The audit after the run reads the output topic with {@code isolation.level=read_committed}
 * from its start and counts the copies, and those that repeat a message (same producer, source
 * partition and sequence).
 */
public final class KafkaTopicSink implements TopicSink {
  /** The header of a copy that names the partition its message came from. */
  public static final String SOURCE_PARTITION_HEADER = "fusillade.source.partition";

  private static final Duration AUDIT_TIMEOUT = Duration.ofSeconds(60);

  private final String output;
  private final Map<String, Object> common;
  private final String transactionalPrefix;
  private volatile Consumers consumers;

  /**
   * Creates the output topic when missing.
   *
   * @param common the client properties (bootstrap.servers, security...) of every client
   * @param output the output topic
   * @param partitions its partitions when created
   * @param replication its replication factor when created
   */
  public KafkaTopicSink(
      Map<String, Object> common, String output, int partitions, int replication) {
    this.common = Map.copyOf(common);
    this.output = output;
    this.transactionalPrefix =
        "fusillade-" + output + "-" + Long.toHexString(System.nanoTime() & 0xffffffL);
    try (Admin admin = Admin.create(new LinkedHashMap<>(common))) {
      admin
          .createTopics(List.of(new NewTopic(output, partitions, (short) replication)))
          .all()
          .get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new FusilladeException(
            "cannot create the output topic " + output + ": " + KafkaErrors.reason(e.getCause()),
            e);
      }
    } catch (Exception e) {
      throw new FusilladeException(
          "cannot create the output topic " + output + ": " + KafkaErrors.reason(e), e);
    }
  }

  @Override
  public Writer open(int consumer) {
    return new TransactionalWriter(transactionalPrefix + "-" + consumer);
  }

  @Override
  public void attached(Consumers group) {
    this.consumers = group;
  }

  @Override
  public Consumers consumers() {
    return consumers;
  }

  @Override
  public Map<String, Object> audit(String topic) {
    Map<String, Object> properties = new LinkedHashMap<>(common);
    properties.put("isolation.level", "read_committed");
    properties.put("enable.auto.commit", "false");
    long copies = 0;
    Set<List<Long>> distinct = new HashSet<>();
    try (KafkaConsumer<Bytes, Bytes> reader =
        new KafkaConsumer<>(properties, new BytesDeserializer(), new BytesDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      reader
          .partitionsFor(output, Duration.ofSeconds(30))
          .forEach(p -> partitions.add(new TopicPartition(output, p.partition())));
      reader.assign(partitions);
      reader.seekToBeginning(partitions);
      // read_committed: the end offsets are the last stable offsets, reached once read
      Map<TopicPartition, Long> ends = reader.endOffsets(partitions, Duration.ofSeconds(30));
      long deadline = System.nanoTime() + AUDIT_TIMEOUT.toNanos();
      while (!reached(reader, ends)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "the output topic " + output + " was not read to its end within " + AUDIT_TIMEOUT);
        }
        for (ConsumerRecord<Bytes, Bytes> r : reader.poll(Duration.ofMillis(200))) {
          copies++;
          var stamp = r.headers().lastHeader(MessageStamp.HEADER);
          var source = r.headers().lastHeader(SOURCE_PARTITION_HEADER);
          MessageStamp s = stamp == null ? null : MessageStamp.decode(stamp.value());
          if (s != null && source != null) {
            distinct.add(
                List.of(
                    s.producerId(), (long) ByteBuffer.wrap(source.value()).getInt(), s.sequence()));
          }
        }
      }
    }
    return TopicSink.audit("topic", output, copies, distinct.size());
  }

  private static boolean reached(KafkaConsumer<?, ?> reader, Map<TopicPartition, Long> ends) {
    for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
      if (reader.position(e.getKey()) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /** One consumer's transactional producer. */
  private final class TransactionalWriter implements Writer {
    private final String transactionalId;
    private KafkaProducer<byte[], byte[]> producer;
    private Supplier<ConsumerGroupMetadata> group;

    TransactionalWriter(String transactionalId) {
      this.transactionalId = transactionalId;
    }

    private KafkaProducer<byte[], byte[]> producer() {
      if (producer == null) {
        Map<String, Object> properties = new LinkedHashMap<>(common);
        properties.put("transactional.id", transactionalId);
        properties.put("enable.idempotence", "true");
        properties.put("acks", "all");
        producer =
            new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
        producer.initTransactions(); // fences an earlier producer of this id: its open work aborts
      }
      return producer;
    }

    @Override
    public void consumer(Supplier<ConsumerGroupMetadata> group) {
      this.group = group;
    }

    @Override
    public Map<Integer, Long> offsets(String topic, Collection<Integer> partitions) {
      return Map.of(); // the group's committed offsets, which only a committed transaction moves
    }

    @Override
    public void store(String topic, List<Row> rows, Map<Integer, Long> nextOffsets) {
      KafkaProducer<byte[], byte[]> p = producer();
      try {
        p.beginTransaction();
        for (Row row : rows) {
          RecordHeaders headers = new RecordHeaders();
          headers.add(
              MessageStamp.HEADER,
              MessageStamp.encode(row.producerId(), row.sequence(), row.sendNanos()));
          headers.add(
              SOURCE_PARTITION_HEADER, ByteBuffer.allocate(4).putInt(row.partition()).array());
          p.send(new ProducerRecord<>(output, null, null, null, new byte[0], headers));
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new LinkedHashMap<>();
        nextOffsets.forEach(
            (partition, next) ->
                offsets.put(new TopicPartition(topic, partition), new OffsetAndMetadata(next)));
        p.sendOffsetsToTransaction(offsets, group.get());
        p.commitTransaction();
      } catch (KafkaException e) {
        // an aborted or fenced transaction: a new producer (initTransactions) starts clean
        close();
        throw new IllegalStateException(KafkaErrors.reason(e), e);
      }
    }

    @Override
    public void close() {
      if (producer != null) {
        try {
          producer.close(Duration.ofSeconds(5));
        } catch (RuntimeException e) {
          // closing a failed producer: its transaction aborts with it
        }
        producer = null;
      }
    }
  }
}
