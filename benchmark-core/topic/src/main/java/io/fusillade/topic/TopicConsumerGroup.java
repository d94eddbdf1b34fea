package io.fusillade.topic;

import io.fusillade.FusilladeException;
import io.fusillade.record.Counter;
import io.fusillade.record.LatencyMetric;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer group reading one topic for the whole run, one thread per consumer. Every message's
 * stamp gives its end-to-end latency (send to receipt, on the injector's clock) and feeds the
 * delivery verifier; every poll publishes the consumers' positions for the lag sampler.
 *
 * <p>{@link #start(Duration)} returns once every partition is assigned and every consumer knows its
 * position, so no message sent afterwards can be missed. Consumers poll with a short timeout and
 * check a flag, so {@link #close()} never waits for a message that does not come.
 *
 * <p>Why one class of about 500 lines: its members share the positions, the start offsets and the
 * rebalance rules (resume where the group was, commit a first position when the group reading is
 * shared by several injectors); the group-wide waits stand alone already ({@link TopicGroupWait}).
 */
final class TopicConsumerGroup implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TopicConsumerGroup.class);
  private static final Duration POLL = Duration.ofMillis(100);

  private final Map<String, Object> properties;
  private final TopicSpec spec;
  private final int partitions;
  private final DeliveryVerifier verifier;
  private final LatencyMetric endToEnd;
  private final Counter messages;
  private final Counter bytes;
  private final AtomicLongArray positions;
  // Where each partition's reading began (the end offset when a consumer first had it): with a
  // sink, a partition that nothing was stored for yet resumes there after a consumer's restart.
  private final AtomicLongArray startOffsets;
  private final AtomicLong lastReceiveNanos = new AtomicLong(System.nanoTime());
  private final TopicShare share;
  private final int count; // this injector's members: all of spec.consumers() when alone
  private final List<Member> members = new ArrayList<>();
  private volatile boolean running = true;

  /**
   * @param positions where consumers publish their next offset per partition (-1: unknown)
   */
  TopicConsumerGroup(
      Map<String, Object> consumerProperties,
      TopicSpec spec,
      String groupId,
      int partitions,
      DeliveryVerifier verifier,
      LatencyMetric endToEnd,
      Counter messages,
      Counter bytes,
      AtomicLongArray positions,
      TopicShare share) {
    this.properties = new java.util.LinkedHashMap<>(consumerProperties);
    this.properties.put("group.id", groupId);
    this.share = share;
    this.count = share.ownOf(spec.consumers());
    if (!share.alone()) {
      // The group's other injectors resume a partition that moves to them where this one
      // committed: every second, not every five, so that little is read twice.
      this.properties.putIfAbsent("auto.commit.interval.ms", "1000");
      // committed offsets are how the injectors see the whole group's reading (its drain)
      this.properties.put("enable.auto.commit", "true");
    }
    if (spec.sink() != null) {
      // the sink's own offsets, written with its rows, are where a partition resumes
      this.properties.put("enable.auto.commit", "false");
    }
    this.spec = spec;
    this.partitions = partitions;
    this.verifier = verifier;
    this.endToEnd = endToEnd;
    this.messages = messages;
    this.bytes = bytes;
    this.positions = positions;
    this.startOffsets = new AtomicLongArray(positions.length());
    for (int i = 0; i < positions.length(); i++) {
      startOffsets.set(i, -1);
    }
  }

  /** This injector's members of the group. */
  int count() {
    return count;
  }

  /**
   * Starts the consumers and waits until the group is stable: all partitions assigned, each to one
   * consumer, positions known. The members of an injector of several wait for their first
   * assignment only (it may be empty): the whole group's stability is the client's to wait for
   * ({@link TopicGroupWait}).
   *
   * @throws FusilladeException when that does not happen within {@code timeout}
   */
  void start(Duration timeout) {
    for (int i = 0; i < count; i++) {
      Member member = new Member(i);
      members.add(member);
      member.thread.start();
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!stable()) {
      for (Member m : members) {
        if (m.failure != null) {
          close();
          throw new FusilladeException(
              "consumer of topic '" + spec.name() + "' failed: " + KafkaErrors.reason(m.failure),
              m.failure);
        }
      }
      if (System.nanoTime() > deadline) {
        close();
        throw new FusilladeException(
            "the "
                + count
                + " consumers of topic '"
                + spec.name()
                + "' were not assigned its "
                + partitions
                + " partitions within "
                + timeout.toSeconds()
                + " s");
      }
      LockSupport.parkNanos(20_000_000);
    }
    if (spec.sink() != null) {
      spec.sink().attached(new SinkConsumers());
    }
  }

  /** The group's consumers for faults: each stopped and started again by its index. */
  private final class SinkConsumers implements TopicSink.Consumers {
    @Override
    public int count() {
      return members.size();
    }

    @Override
    public void stop(int index) {
      Member member;
      synchronized (members) {
        member = members.get(index);
      }
      member.active = false;
      try {
        member.thread.join(15_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void start(int index) {
      synchronized (members) {
        if (members.get(index).thread.isAlive() || !running) {
          return;
        }
        Member member = new Member(index);
        members.set(index, member);
        member.thread.start();
      }
    }
  }

  private boolean stable() {
    if (!share.alone()) {
      return members.stream().allMatch(m -> m.hadAssignment);
    }
    int assigned = 0;
    for (Member m : members) {
      int size = m.assignedCount;
      if (!m.hadAssignment || (size == 0 && spec.consumers() <= partitions)) {
        return false;
      }
      assigned += size;
    }
    return assigned == partitions;
  }

  /** The client id of the group's test-wide member {@code global} (injectors of several). */
  String clientId(int global) {
    return properties.getOrDefault("client.id", "fusillade")
        + "-"
        + spec.name()
        + "-reader-"
        + global;
  }

  /** How many partitions this injector's members hold now. */
  int assignedHere() {
    int n = 0;
    synchronized (members) {
      for (Member m : members) {
        n += m.assignedCount;
      }
    }
    return n;
  }

  /** When the last message arrived. */
  long lastReceiveNanos() {
    return lastReceiveNanos.get();
  }

  /** Stops the consumers (after at most one poll) and closes them. */
  @Override
  public void close() {
    running = false;
    List<Member> all;
    synchronized (members) {
      all = new ArrayList<>(members);
    }
    for (Member m : all) {
      try {
        m.thread.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void handle(ConsumerRecord<Void, Void> record, long now) {
    Headers headers = record.headers();
    Header header = headers.lastHeader(MessageStamp.HEADER);
    MessageStamp stamp = header == null ? null : MessageStamp.decode(header.value());
    if (stamp != null) {
      // on the test's reference clock when it has several injectors (the base is 0 alone)
      endToEnd.recordMicros((now + share.clockBaseNanos() - stamp.sendNanos()) / 1000);
    }
    verifier.received(stamp, record.partition());
    messages.increment();
    bytes.add(Math.max(0, record.serializedValueSize()));
  }

  /**
   * Writes a poll's records to the sink with their partitions' next offsets, in one transaction; on
   * failure nothing is handled and the partitions are read again from the poll's first offsets.
   *
   * @return whether the records are stored
   */
  private boolean store(
      TopicSink.Writer writer,
      KafkaConsumer<Void, Void> consumer,
      ConsumerRecords<Void, Void> records) {
    List<TopicSink.Row> rows = new ArrayList<>(records.count());
    Map<Integer, Long> next = new java.util.HashMap<>();
    for (TopicPartition tp : records.partitions()) {
      List<ConsumerRecord<Void, Void>> list = records.records(tp);
      for (ConsumerRecord<Void, Void> r : list) {
        Header header = r.headers().lastHeader(MessageStamp.HEADER);
        MessageStamp stamp = header == null ? null : MessageStamp.decode(header.value());
        rows.add(
            stamp == null
                ? new TopicSink.Row(tp.partition(), r.offset(), -1, -1, 0)
                : new TopicSink.Row(
                    tp.partition(),
                    r.offset(),
                    stamp.producerId(),
                    stamp.sequence(),
                    stamp.sendNanos()));
      }
      next.put(tp.partition(), list.get(list.size() - 1).offset() + 1);
    }
    try {
      writer.store(spec.name(), rows, next);
      return true;
    } catch (RuntimeException e) {
      LOG.warn(
          "Topic {}: the sink did not store {} messages: {}",
          spec.name(),
          rows.size(),
          e.toString());
      for (TopicPartition tp : records.partitions()) {
        consumer.seek(tp, records.records(tp).get(0).offset());
      }
      LockSupport.parkNanos(100_000_000); // a sink that is down: do not spin
      return false;
    }
  }

  /** One consumer and its thread. */
  private final class Member implements Runnable, ConsumerRebalanceListener {
    final Thread thread;
    final int index;
    volatile boolean active = true;
    TopicSink.Writer writer;
    KafkaConsumer<Void, Void> consumer;
    volatile int assignedCount;
    volatile boolean hadAssignment;
    volatile Exception failure;
    private final Set<TopicPartition> assigned = new HashSet<>();

    Member(int index) {
      this.index = index;
      thread = new Thread(this, "fusillade-consumer-" + spec.name() + "-" + share.global(index));
      thread.setDaemon(true);
    }

    @Override
    public void run() {
      try {
        writer = spec.sink() == null ? null : spec.sink().open(index);
        Map<String, Object> own = properties;
        if (!share.alone()) {
          // told apart from the other injectors' members in the group's description
          own = new java.util.LinkedHashMap<>(properties);
          own.put("client.id", clientId(share.global(index)));
        }
        consumer = new KafkaConsumer<>(own, new Skip(), new Skip());
        if (writer != null) {
          KafkaConsumer<Void, Void> mine = consumer;
          writer.consumer(mine::groupMetadata);
        }
        consumer.subscribe(List.of(spec.name()), this);
        long pause = spec.processingTime().toNanos();
        while (running && active) {
          ConsumerRecords<Void, Void> records = consumer.poll(POLL);
          if (records.isEmpty()) {
            continue;
          }
          if (writer != null && !store(writer, consumer, records)) {
            continue;
          }
          long now = System.nanoTime();
          for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<Void, Void>> list = records.records(tp);
            for (ConsumerRecord<Void, Void> r : list) {
              if (pause > 0) {
                LockSupport.parkNanos(pause);
                now = System.nanoTime();
              }
              handle(r, now);
              if (pause > 0) {
                // A slow reader's position moves message by message, not a whole poll at once:
                // its lag then shows its rate, not the sawtooth of its batches.
                positions.set(tp.partition(), r.offset() + 1);
              }
            }
            positions.set(tp.partition(), list.get(list.size() - 1).offset() + 1);
          }
          lastReceiveNanos.set(now);
        }
      } catch (Exception e) {
        failure = e;
        if (running) {
          LOG.warn("Consumer of topic {} stopped: {}", spec.name(), KafkaErrors.reason(e));
        }
      } finally {
        if (consumer != null) {
          try {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(3)));
          } catch (RuntimeException e) {
            LOG.debug("Closing a consumer of {}: {}", spec.name(), e.toString());
          }
        }
        if (writer != null) {
          writer.close();
        }
      }
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      if (writer != null && !partitions.isEmpty()) {
        Map<Integer, Long> stored =
            writer.offsets(
                spec.name(), partitions.stream().map(TopicPartition::partition).toList());
        Map<TopicPartition, OffsetAndMetadata> committed =
            consumer.committed(new HashSet<>(partitions), Duration.ofSeconds(30));
        for (TopicPartition tp : partitions) {
          Long offset = stored.get(tp.partition());
          if (offset == null
              && committed.get(tp) == null
              && startOffsets.get(tp.partition()) >= 0) {
            // Nothing stored for this partition yet, by a consumer that stopped before its first
            // transaction: its messages are read from where the group began, not from the end as
            // it is now (auto.offset.reset=latest), which skipped them (64 lost in one CI run).
            offset = startOffsets.get(tp.partition());
          }
          if (offset != null) {
            consumer.seek(tp, offset);
          }
        }
      } else {
        resumeWhereTheGroupWas(partitions);
      }
      Map<TopicPartition, OffsetAndMetadata> resolved = new java.util.HashMap<>();
      for (TopicPartition tp : partitions) {
        // Resolve the position now (auto.offset.reset), before the first send, not at first fetch.
        long position = consumer.position(tp, Duration.ofSeconds(30));
        positions.set(tp.partition(), position);
        startOffsets.compareAndSet(tp.partition(), -1, position);
        resolved.put(tp, new OffsetAndMetadata(position));
      }
      if (!share.alone() && !partitions.isEmpty()) {
        commitFirstPositions(resolved);
      }
      assigned.addAll(partitions);
      assignedCount = assigned.size();
      hadAssignment = true;
    }

    /**
     * A partition this group read before, assigned again (after a rebalance, or its coordinator's
     * restart) with no offset committed for it yet: auto-commit runs every 5 s, so a broker stopped
     * in the run's first seconds leaves none. Without a seek the consumer would start from the end
     * (auto.offset.reset=latest) and skip what was acknowledged in between: "lost" messages that
     * are in the topic (2 in one CI run). It resumes where this group's reading got to instead.
     */
    private void resumeWhereTheGroupWas(Collection<TopicPartition> partitions) {
      Set<TopicPartition> seen = new HashSet<>();
      for (TopicPartition tp : partitions) {
        if (startOffsets.get(tp.partition()) >= 0) {
          seen.add(tp);
        }
      }
      if (seen.isEmpty()) {
        return; // the first assignment: from the end, as configured
      }
      Map<TopicPartition, OffsetAndMetadata> committed =
          consumer.committed(seen, Duration.ofSeconds(30));
      for (TopicPartition tp : seen) {
        if (committed.get(tp) == null) {
          long read = positions.get(tp.partition());
          consumer.seek(tp, read >= 0 ? read : startOffsets.get(tp.partition()));
        }
      }
    }

    /**
     * Commits the positions just resolved of the partitions the group has no offset for yet (an
     * injector of several): a partition that moves to another injector's reader before the first
     * auto-commit then resumes here, not at the end, and the injectors start sending only once
     * every partition has a committed offset ({@link TopicGroupWait#awaitStable}), so that none is
     * positioned after a message.
     */
    private void commitFirstPositions(Map<TopicPartition, OffsetAndMetadata> resolved) {
      Map<TopicPartition, OffsetAndMetadata> committed =
          consumer.committed(resolved.keySet(), Duration.ofSeconds(30));
      Map<TopicPartition, OffsetAndMetadata> first = new java.util.HashMap<>();
      resolved.forEach(
          (tp, position) -> {
            if (committed.get(tp) == null) {
              first.put(tp, position);
            }
          });
      if (!first.isEmpty()) {
        consumer.commitSync(first, Duration.ofSeconds(30));
      }
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      assigned.removeAll(partitions);
      assignedCount = assigned.size();
      if (!share.alone()) {
        // read on, maybe, by another injector: this one's lag and drain leave it out
        partitions.forEach(tp -> positions.set(tp.partition(), -1));
      }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      onPartitionsRevoked(partitions);
    }
  }

  /** Reads nothing: the consumer needs only headers and sizes, so no payload is copied. */
  static final class Skip implements Deserializer<Void> {
    @Override
    public Void deserialize(String topic, byte[] data) {
      return null;
    }

    @Override
    public Void deserialize(String topic, Headers headers, ByteBuffer data) {
      return null;
    }
  }
}
