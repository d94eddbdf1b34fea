package io.fusillade.topic;

import io.fusillade.record.DeliveryBits;
import io.fusillade.record.DeliveryCounts;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Checks that every acknowledged message of one topic was received, once and in order.
 *
 * <p>Messages are counted per <em>stream</em>: one producer (sending thread) and one partition.
 * Within a stream, sequence numbers are dense (0, 1, 2, ...) and sent in order, so one bit per
 * message and per side is enough: two bits per message in all, whatever the run's length. Producers
 * call {@link Stream#acknowledged(long)} from the producer's callback and consumers call {@link
 * #received(MessageStamp, int)}; both are lock-free.
 *
 * <p>When the consumers have drained, {@link #report()} counts:
 *
 * <ul>
 *   <li><b>acknowledged</b>: messages the broker acknowledged;
 *   <li><b>received</b>: distinct messages the consumers got;
 *   <li><b>lost</b>: acknowledged but never received;
 *   <li><b>duplicated</b>: receipts of a message already received (after a rebalance or a retry
 *       without idempotence);
 *   <li><b>out of order</b>: a message received for the first time after a later message of the
 *       same stream;
 *   <li><b>received unacknowledged</b>: received, although its send failed (for example a delivery
 *       timeout on a write the broker did keep): not an error of the broker, but shown;
 *   <li><b>foreign</b>: messages without a stamp of this run (earlier runs, other writers).
 * </ul>
 */
public final class DeliveryVerifier {
  private final String topic;
  private final long runPrefix;
  private final ConcurrentHashMap<StreamKey, Stream> streams = new ConcurrentHashMap<>();
  private final LongAdder foreign = new LongAdder();

  /** A verifier for {@code topic} with a random run prefix. */
  public DeliveryVerifier(String topic) {
    this(topic, new SecureRandom().nextInt() & 0x7fffffffL);
  }

  /** A verifier with a given run prefix (tests). */
  DeliveryVerifier(String topic, long runPrefix) {
    this.topic = topic;
    this.runPrefix = runPrefix;
  }

  public String topic() {
    return topic;
  }

  /** The producer id of sending stream {@code index} (a thread) in this run. */
  public long producerId(int index) {
    return (runPrefix << 32) | (index & 0xffffffffL);
  }

  /** The stream of one producer and partition; producers keep it. */
  public Stream stream(long producerId, int partition) {
    return streams.computeIfAbsent(new StreamKey(producerId, partition), k -> new Stream());
  }

  /** Counts a received message; a null stamp or one of another run counts as foreign. */
  public void received(MessageStamp stamp, int partition) {
    if (stamp == null || (stamp.producerId() >>> 32) != runPrefix) {
      foreign.increment();
      return;
    }
    stream(stamp.producerId(), partition).received(stamp.sequence());
  }

  /** The counts so far; final once the consumers have drained. */
  public Report report() {
    List<StreamReport> list = new ArrayList<>();
    streams.forEach((key, s) -> list.add(s.report(key)));
    return summed(list);
  }

  private Report summed(List<StreamReport> list) {
    list.sort(
        Comparator.comparingLong(StreamReport::producerId)
            .thenComparingInt(StreamReport::partition));
    long acked = 0;
    long received = 0;
    long lost = 0;
    long duplicated = 0;
    long outOfOrder = 0;
    long unacked = 0;
    for (StreamReport r : list) {
      acked += r.acknowledged();
      received += r.received();
      lost += r.lost();
      duplicated += r.duplicated();
      outOfOrder += r.outOfOrder();
      unacked += r.receivedUnacknowledged();
    }
    return new Report(
        topic, acked, received, lost, duplicated, outOfOrder, unacked, foreign.sum(), list);
  }

  /**
   * The counts of the messages acknowledged before {@code cut} (marks taken by {@link #marks()}):
   * for a run stopped before its consumers drained, whose record ended at that cut. Per stream,
   * only the sequence numbers below the stream's mark count, received ones included, so that the
   * counts describe the messages of the run's request table (its OK writes, and the few whose
   * acknowledgement came while that flush ran: noted before recorded); what was acknowledged then
   * and not read yet is {@link Report#lost()} here, to be shown as unread ({@link
   * Report#toUnverifiedMap}), never as lost. Duplicates and reordering are the run's totals.
   */
  public Report reportUpTo(Map<Object, Long> cut) {
    List<StreamReport> list = new ArrayList<>();
    streams.forEach((key, s) -> list.add(s.report(key, cut.getOrDefault(key, 0L))));
    return summed(list);
  }

  /**
   * Where every stream's acknowledgements have got to: the highest acknowledged sequence plus one.
   * Two marks taken at two times bound the messages sent in between, see {@link #lostBetween}.
   */
  public Map<Object, Long> marks() {
    Map<Object, Long> marks = new java.util.HashMap<>();
    streams.forEach((key, s) -> marks.put(key, s.nextAcked.get()));
    return marks;
  }

  /**
   * Lost messages among those acknowledged between two {@link #marks()}: per stream, the sequence
   * numbers from the first mark up to the second.
   */
  public long lostBetween(Map<Object, Long> from, Map<Object, Long> to) {
    long lost = 0;
    for (Map.Entry<Object, Long> e : to.entrySet()) {
      Stream s = streams.get(e.getKey());
      if (s != null) {
        long start = from.getOrDefault(e.getKey(), 0L);
        lost += s.acked.countNotIn(s.received, start, e.getValue());
      }
    }
    return lost;
  }

  /**
   * Every stream's sequence numbers as they are now, for the record of an injector of several
   * ({@link DeliveryBits}): their delivery is verified from all their records together.
   */
  public DeliveryBits.TopicBits bits() {
    List<DeliveryBits.StreamBits> list = new ArrayList<>();
    streams.forEach(
        (key, s) ->
            list.add(
                new DeliveryBits.StreamBits(
                    key.producerId(),
                    key.partition(),
                    s.acked.toBitSet(),
                    s.received.toBitSet(),
                    s.duplicated.sum(),
                    s.outOfOrder.sum())));
    return new DeliveryBits.TopicBits(topic, foreign.sum(), list);
  }

  private record StreamKey(long producerId, int partition) {}

  /** The messages of one producer to one partition. */
  public static final class Stream {
    private final SequenceBits acked = new SequenceBits();
    private final SequenceBits received = new SequenceBits();
    private final LongAdder ackCount = new LongAdder();
    private final LongAdder receivedCount = new LongAdder();
    private final LongAdder duplicated = new LongAdder();
    private final LongAdder outOfOrder = new LongAdder();
    private final AtomicLong highest = new AtomicLong(-1);
    private final AtomicLong nextAcked = new AtomicLong();

    Stream() {}

    /** The broker acknowledged message {@code sequence}. */
    public void acknowledged(long sequence) {
      if (acked.add(sequence)) {
        ackCount.increment();
        if (nextAcked.get() <= sequence) {
          nextAcked.accumulateAndGet(sequence + 1, Math::max);
        }
      }
    }

    void received(long sequence) {
      if (!received.add(sequence)) {
        duplicated.increment();
        return;
      }
      receivedCount.increment();
      long before = highest.getAndAccumulate(sequence, Math::max);
      if (sequence < before) {
        outOfOrder.increment();
      }
    }

    /** The counts of the sequence numbers below {@code cut}. */
    StreamReport report(StreamKey key, long cut) {
      return new StreamReport(
          key.producerId(),
          key.partition(),
          acked.countBelow(cut, null),
          received.countBelow(cut, null),
          acked.countBelow(cut, received),
          duplicated.sum(),
          outOfOrder.sum(),
          received.countBelow(cut, acked));
    }

    StreamReport report(StreamKey key) {
      return new StreamReport(
          key.producerId(),
          key.partition(),
          ackCount.sum(),
          receivedCount.sum(),
          acked.countNotIn(received),
          duplicated.sum(),
          outOfOrder.sum(),
          received.countNotIn(acked));
    }
  }

  /**
   * One stream's counts.
   *
   * @param producerId the producer
   * @param partition the partition
   * @param acknowledged acknowledged messages
   * @param received distinct received messages
   * @param lost acknowledged, not received
   * @param duplicated repeated receipts
   * @param outOfOrder first receipts after a later message
   * @param receivedUnacknowledged received although not acknowledged
   */
  public record StreamReport(
      long producerId,
      int partition,
      long acknowledged,
      long received,
      long lost,
      long duplicated,
      long outOfOrder,
      long receivedUnacknowledged) {}

  /**
   * A topic's counts.
   *
   * @param topic the topic
   * @param acknowledged acknowledged messages
   * @param received distinct received messages
   * @param lost acknowledged, not received
   * @param duplicated repeated receipts
   * @param outOfOrder first receipts after a later message of the same stream
   * @param receivedUnacknowledged received although not acknowledged
   * @param foreign messages without a stamp of this run
   * @param streams per producer and partition
   */
  public record Report(
      String topic,
      long acknowledged,
      long received,
      long lost,
      long duplicated,
      long outOfOrder,
      long receivedUnacknowledged,
      long foreign,
      List<StreamReport> streams) {

    /** Copies the list. */
    public Report {
      streams = List.copyOf(streams);
    }

    /** Every acknowledged message received exactly once, in order. */
    public boolean exact() {
      return lost == 0 && duplicated == 0 && outOfOrder == 0 && received >= acknowledged;
    }

    /**
     * The counts per partition, all producers together, sorted by partition: what a reader of the
     * run compares across partitions (one slow or lossy partition points at one broker).
     */
    public List<PartitionReport> partitions() {
      Map<Integer, long[]> sums = new java.util.TreeMap<>();
      for (StreamReport s : streams) {
        long[] sum = sums.computeIfAbsent(s.partition(), p -> new long[5]);
        sum[0] += s.acknowledged();
        sum[1] += s.received();
        sum[2] += s.lost();
        sum[3] += s.duplicated();
        sum[4] += s.outOfOrder();
      }
      List<PartitionReport> list = new ArrayList<>();
      sums.forEach(
          (p, sum) -> list.add(new PartitionReport(p, sum[0], sum[1], sum[2], sum[3], sum[4])));
      return list;
    }

    /**
     * The counts for {@code run.json} of a delivery that could not be verified (the run stopped
     * before its consumers drained): {@link #toMap()} with {@code verified: false}, the reason, and
     * {@link #lost()} as {@code unread}, never as {@code lost}; {@code exact} is false: nothing
     * says it was ({@link DeliveryCounts#toMap()}).
     *
     * @param why why it was not verified: {@code the run stopped before the drain}
     */
    public Map<String, Object> toUnverifiedMap(String why) {
      return toCounts().unverified(why).toMap();
    }

    /** The counts for {@code run.json} ({@link DeliveryCounts#toMap()}). */
    public Map<String, Object> toMap() {
      return toCounts().toMap();
    }

    /**
     * The counts as {@code run.json} holds them: the totals, {@code perPartition} (up to {@value
     * DeliveryCounts#MAX_PARTITIONS_RECORDED} partitions) and {@code streams}, per producer and
     * partition (up to {@value DeliveryCounts#MAX_STREAMS_RECORDED} streams) and {@code
     * perProducer} (up to {@value DeliveryCounts#MAX_PRODUCERS_RECORDED} producers).
     */
    public DeliveryCounts toCounts() {
      List<DeliveryCounts.Stream> all = new ArrayList<>();
      for (StreamReport s : streams) {
        all.add(
            new DeliveryCounts.Stream(
                s.producerId() & 0xffffffffL,
                s.partition(),
                new DeliveryCounts.Counts(
                    s.acknowledged(), s.received(), s.lost(), s.duplicated(), s.outOfOrder())));
      }
      return DeliveryCounts.of(all, receivedUnacknowledged, foreign);
    }
  }

  /**
   * One partition's counts, all producers together.
   *
   * @param partition the partition
   * @param acknowledged acknowledged messages
   * @param received distinct received messages
   * @param lost acknowledged, not received
   * @param duplicated repeated receipts
   * @param outOfOrder first receipts after a later message of the same producer
   */
  public record PartitionReport(
      int partition,
      long acknowledged,
      long received,
      long lost,
      long duplicated,
      long outOfOrder) {}
}
