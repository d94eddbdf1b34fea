package io.fusillade.record;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code delivery} entry of a topic in {@code run.json} (health {@code topic.<T>}), typed: what
 * the topic protocol's delivery verifier counted, written by the topic client and read by the
 * reports, through this one class so that the two can never disagree on a key. See
 * src/site/topics.md, "delivery".
 *
 * <p>A delivery is <i>verified</i> when the consumers were waited for (the drain) before the counts
 * were taken; one that is not (the run stopped first) names why, and its {@link #lost()} messages
 * are written as {@code unread}: acknowledged, not read when the run stopped, maybe lost, maybe
 * only late.
 *
 * @param acknowledged messages the broker acknowledged
 * @param received distinct messages the consumers got
 * @param lost acknowledged, never received by the end of the drain ({@code unread} when not
 *     verified)
 * @param duplicated receipts of a message already received
 * @param outOfOrder first receipts after a later message of the same producer and partition
 * @param receivedUnacknowledged received although their send failed: shown, not an error
 * @param foreign received without a stamp of this run
 * @param streams per producer and partition; empty when not recorded (more than {@value
 *     #MAX_STREAMS_RECORDED})
 * @param perPartition per partition, every producer together; empty when not recorded
 * @param perProducer per producer (a topic's writer, or a sending thread), every partition
 *     together; empty when not recorded (more than {@value #MAX_PRODUCERS_RECORDED})
 * @param notVerified why the delivery was not verified, or null when it was
 */
public record DeliveryCounts(
    long acknowledged,
    long received,
    long lost,
    long duplicated,
    long outOfOrder,
    long receivedUnacknowledged,
    long foreign,
    List<Stream> streams,
    List<Partition> perPartition,
    List<Producer> perProducer,
    String notVerified) {

  /** The most streams (producer and partition) recorded one by one. */
  public static final int MAX_STREAMS_RECORDED = 64;

  /** The most partitions recorded one by one; a topic with more keeps its totals only. */
  public static final int MAX_PARTITIONS_RECORDED = 1024;

  /** The most producers recorded one by one (a topic's {@code producers:} go up to this). */
  public static final int MAX_PRODUCERS_RECORDED = 256;

  /** Copies the lists. */
  public DeliveryCounts {
    streams = List.copyOf(streams);
    perPartition = List.copyOf(perPartition);
    perProducer = List.copyOf(perProducer);
  }

  /**
   * One producer's messages to one partition.
   *
   * @param producer the producer's id (unsigned 32 bits)
   * @param partition the partition
   * @param counts its counts
   */
  public record Stream(long producer, int partition, Counts counts) {}

  /**
   * One partition's messages, every producer together.
   *
   * @param partition the partition
   * @param counts its counts
   */
  public record Partition(int partition, Counts counts) {}

  /**
   * One producer's messages, every partition together.
   *
   * @param producer the producer's id (unsigned 32 bits: its index in the run)
   * @param counts its counts
   */
  public record Producer(long producer, Counts counts) {}

  /**
   * The counts of a topic from its streams: the totals are their sums; {@code streams} (up to
   * {@value #MAX_STREAMS_RECORDED}), {@code perPartition} (up to {@value #MAX_PARTITIONS_RECORDED})
   * and {@code perProducer} (up to {@value #MAX_PRODUCERS_RECORDED}) as recorded.
   *
   * @param all every stream's counts, in the order to record them
   * @param receivedUnacknowledged received although their send failed, all streams together
   * @param foreign received without a stamp of this run
   * @return verified counts ({@link #unverified} makes them not)
   */
  public static DeliveryCounts of(List<Stream> all, long receivedUnacknowledged, long foreign) {
    Counts total = new Counts(0, 0, 0, 0, 0);
    Map<Integer, Counts> partitions = new TreeMap<>();
    for (Stream s : all) {
      total = total.plus(s.counts());
      partitions.merge(s.partition(), s.counts(), Counts::plus);
    }
    List<Partition> perPartition =
        partitions.size() <= MAX_PARTITIONS_RECORDED
            ? partitions.entrySet().stream()
                .map(e -> new Partition(e.getKey(), e.getValue()))
                .toList()
            : List.of();
    return new DeliveryCounts(
        total.acknowledged(),
        total.received(),
        total.lost(),
        total.duplicated(),
        total.outOfOrder(),
        receivedUnacknowledged,
        foreign,
        all.size() <= MAX_STREAMS_RECORDED ? all : List.of(),
        perPartition,
        byProducer(all),
        null);
  }

  /**
   * Streams summed by producer, in producer order; empty when there are more than {@value
   * #MAX_PRODUCERS_RECORDED} producers.
   *
   * @param streams per producer and partition
   */
  public static List<Producer> byProducer(List<Stream> streams) {
    Map<Long, Counts> sums = new TreeMap<>();
    streams.forEach(s -> sums.merge(s.producer(), s.counts(), Counts::plus));
    if (sums.size() > MAX_PRODUCERS_RECORDED) {
      return List.of();
    }
    return sums.entrySet().stream().map(e -> new Producer(e.getKey(), e.getValue())).toList();
  }

  /**
   * The counts of a stream or a partition.
   *
   * @param acknowledged acknowledged messages
   * @param received distinct received messages
   * @param lost acknowledged, not received ({@code unread} when not verified)
   * @param duplicated repeated receipts
   * @param outOfOrder first receipts after a later message of the same producer
   */
  public record Counts(
      long acknowledged, long received, long lost, long duplicated, long outOfOrder) {

    /** Both together: two injectors' counts of one partition. */
    public Counts plus(Counts o) {
      return new Counts(
          acknowledged + o.acknowledged,
          received + o.received,
          lost + o.lost,
          duplicated + o.duplicated,
          outOfOrder + o.outOfOrder);
    }

    private void write(Map<String, Object> m, boolean verified) {
      m.put("acknowledged", acknowledged);
      m.put("received", received);
      m.put(verified ? "lost" : "unread", lost);
      m.put("duplicated", duplicated);
      m.put("outOfOrder", outOfOrder);
    }

    private static Counts read(Map<?, ?> m) {
      return new Counts(
          number(m, "acknowledged"),
          number(m, "received"),
          number(m, "lost") + number(m, "unread"),
          number(m, "duplicated"),
          number(m, "outOfOrder"));
    }
  }

  private static final String ONE_OF = "one of ";

  /**
   * Why the delivery of an injector of several ({@code --injectors N}) is not verified on its own
   * record: its readers share one group with the others', so it has read some of their messages and
   * they some of its own. Their records together are verified ({@link DeliveryBits#merge}).
   *
   * @param injectors the injectors of the test
   */
  public static String oneOf(int injectors) {
    return ONE_OF
        + injectors
        + " injectors whose readers share one group: verified from their records together"
        + " (fusillade report DIR1 DIR2 ...)";
  }

  /** Whether a reason of {@link #notVerified()} is {@link #oneOf}'s. */
  public static boolean isOneOf(String notVerified) {
    return notVerified != null && notVerified.startsWith(ONE_OF);
  }

  /** Whether the consumers' reads were waited for (the drain) before the counts were taken. */
  public boolean verified() {
    return notVerified == null;
  }

  /**
   * Every acknowledged message received exactly once and in order: the verifier's verdict; never
   * for a delivery that was not verified.
   */
  public boolean exact() {
    return verified()
        && lost == 0
        && duplicated == 0
        && outOfOrder == 0
        && received >= acknowledged;
  }

  /**
   * The same counts, not verified: the run stopped before the drain.
   *
   * @param why why: {@code the run stopped before the drain}
   */
  public DeliveryCounts unverified(String why) {
    return new DeliveryCounts(
        acknowledged,
        received,
        lost,
        duplicated,
        outOfOrder,
        receivedUnacknowledged,
        foreign,
        streams,
        perPartition,
        perProducer,
        why);
  }

  /**
   * The entry of {@code run.json}: {@code acknowledged}, {@code received}, {@code lost}, {@code
   * duplicated}, {@code outOfOrder}, {@code receivedUnacknowledged}, {@code foreign}, {@code
   * exact}, then {@code streams}, {@code perPartition} and {@code perProducer} when recorded; not
   * verified, it starts with {@code verified: false} and {@code notVerified}, and says {@code
   * unread} for {@code lost}.
   */
  public Map<String, Object> toMap() {
    boolean verified = verified();
    Map<String, Object> m = new LinkedHashMap<>();
    if (!verified) {
      m.put("verified", false);
      m.put("notVerified", notVerified);
    }
    new Counts(acknowledged, received, lost, duplicated, outOfOrder).write(m, verified);
    m.put("receivedUnacknowledged", receivedUnacknowledged);
    m.put("foreign", foreign);
    m.put("exact", exact());
    if (!streams.isEmpty()) {
      List<Map<String, Object>> list = new ArrayList<>();
      for (Stream s : streams) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("producer", s.producer());
        e.put("partition", s.partition());
        s.counts().write(e, verified);
        list.add(e);
      }
      m.put("streams", list);
    }
    if (!perPartition.isEmpty()) {
      List<Map<String, Object>> list = new ArrayList<>();
      for (Partition p : perPartition) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("partition", p.partition());
        p.counts().write(e, verified);
        list.add(e);
      }
      m.put("perPartition", list);
    }
    if (!perProducer.isEmpty()) {
      List<Map<String, Object>> list = new ArrayList<>();
      for (Producer p : perProducer) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("producer", p.producer());
        p.counts().write(e, verified);
        list.add(e);
      }
      m.put("perProducer", list);
    }
    return m;
  }

  /**
   * Reads an entry as {@link #toMap()} writes it, and those of older records: without {@code
   * perPartition}, the partitions are the streams summed by partition; without {@code perProducer},
   * the producers are the streams summed by producer.
   *
   * @param m the {@code delivery} map of a {@code topic.<T>} health entry
   */
  public static DeliveryCounts fromMap(Map<?, ?> m) {
    List<Stream> streams = new ArrayList<>();
    if (m.get("streams") instanceof List<?> list) {
      for (Object o : list) {
        if (o instanceof Map<?, ?> e && e.get("partition") instanceof Number p) {
          streams.add(new Stream(number(e, "producer"), p.intValue(), Counts.read(e)));
        }
      }
    }
    Map<Integer, Counts> partitions = new TreeMap<>();
    if (m.get("perPartition") instanceof List<?> list) {
      for (Object o : list) {
        if (o instanceof Map<?, ?> e && e.get("partition") instanceof Number p) {
          partitions.merge(p.intValue(), Counts.read(e), Counts::plus);
        }
      }
    } else {
      streams.forEach(s -> partitions.merge(s.partition(), s.counts(), Counts::plus));
    }
    List<Producer> producers = new ArrayList<>();
    if (m.get("perProducer") instanceof List<?> list) {
      for (Object o : list) {
        if (o instanceof Map<?, ?> e && e.get("producer") instanceof Number p) {
          producers.add(new Producer(p.longValue(), Counts.read(e)));
        }
      }
    } else {
      producers.addAll(byProducer(streams));
    }
    String why = null;
    if (Boolean.FALSE.equals(m.get("verified"))) {
      why = m.get("notVerified") == null ? "not drained" : String.valueOf(m.get("notVerified"));
    }
    return new DeliveryCounts(
        number(m, "acknowledged"),
        number(m, "received"),
        number(m, "lost") + number(m, "unread"),
        number(m, "duplicated"),
        number(m, "outOfOrder"),
        number(m, "receivedUnacknowledged"),
        number(m, "foreign"),
        streams,
        partitions.entrySet().stream().map(e -> new Partition(e.getKey(), e.getValue())).toList(),
        producers,
        why);
  }

  private static long number(Map<?, ?> m, String key) {
    return m.get(key) instanceof Number n ? n.longValue() : 0;
  }
}
