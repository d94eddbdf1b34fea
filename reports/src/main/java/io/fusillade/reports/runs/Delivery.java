package io.fusillade.reports.runs;

import io.fusillade.record.DeliveryBits;
import io.fusillade.record.DeliveryCounts;
import io.fusillade.record.RunRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the topic protocol's delivery verifier counted for one topic: {@code run.json} health {@code
 * topic.<T>}, entry {@code delivery} (see src/site/topics.md). Over several injectors: verified
 * from their {@link DeliveryBits} together when their readers shared one group (a topic workload of
 * {@code fusillade run --injectors N}), else summed (each verified the messages its own producers
 * sent).
 *
 * @param topic the topic
 * @param partitions the topic's partitions (the most any injector saw)
 * @param consumers consumers, all injectors together
 * @param acknowledged messages the broker acknowledged
 * @param received distinct messages the consumers got
 * @param lost acknowledged, never received by the end of the drain
 * @param duplicated receipts of a message already received
 * @param outOfOrder first receipts after a later message of the same producer and partition
 * @param receivedUnacknowledged received although their send failed: shown, not an error
 * @param foreign received without a stamp of this run
 * @param drained whether every injector's consumers read up to the end offsets in time
 * @param lagTrend the consumer lag's verdict while the load ran ({@code flat}, {@code growing},
 *     {@code unknown}; several injectors: the worst), or null when not recorded
 * @param perPartition per partition, every producer together, sorted; empty when not recorded (an
 *     unverified delivery's partitions count unread messages where a verified one's count lost
 *     ones)
 * @param perProducer per producer (a topic's writer, or a sending thread), every partition
 *     together, in producer order; empty when not recorded, and when several injectors' counts were
 *     summed (each numbers its producers from 0) rather than verified together (their readers
 *     shared one group, and their producers are numbered test-wide)
 * @param unread acknowledged and not read when the run stopped, in a delivery that was not
 *     verified: maybe lost, maybe only late (0 when verified)
 * @param notVerified why the delivery was not verified ({@code the run stopped before the drain}:
 *     its record closed before the consumers drained), or null when it was
 */
public record Delivery(
    String topic,
    int partitions,
    int consumers,
    long acknowledged,
    long received,
    long lost,
    long duplicated,
    long outOfOrder,
    long receivedUnacknowledged,
    long foreign,
    boolean drained,
    String lagTrend,
    List<PartitionDelivery> perPartition,
    List<ProducerDelivery> perProducer,
    long unread,
    String notVerified) {

  /** The prefix of the health entries that hold a topic's delivery counts. */
  public static final String HEALTH_PREFIX = "topic.";

  /** Copies the list. */
  public Delivery {
    perPartition = List.copyOf(perPartition);
    perProducer = List.copyOf(perProducer);
  }

  /**
   * One partition's counts.
   *
   * @param partition the partition
   * @param acknowledged acknowledged messages
   * @param received distinct received messages
   * @param lost acknowledged, not received
   * @param duplicated repeated receipts
   * @param outOfOrder first receipts after a later message of the same producer
   */
  public record PartitionDelivery(
      int partition,
      long acknowledged,
      long received,
      long lost,
      long duplicated,
      long outOfOrder) {

    /** The fields of {@code summary.json}, named as in {@code run.json}. */
    public Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("partition", partition);
      m.put("acknowledged", acknowledged);
      m.put("received", received);
      m.put("lost", lost);
      m.put("duplicated", duplicated);
      m.put("outOfOrder", outOfOrder);
      return m;
    }
  }

  /**
   * One producer's counts, every partition together.
   *
   * @param producer the producer's index in its injector's run
   * @param acknowledged acknowledged messages
   * @param received distinct received messages
   * @param lost acknowledged, not received
   * @param duplicated repeated receipts
   * @param outOfOrder first receipts after a later message of the same producer and partition
   */
  public record ProducerDelivery(
      long producer,
      long acknowledged,
      long received,
      long lost,
      long duplicated,
      long outOfOrder) {

    /** The fields of {@code summary.json}, named as in {@code run.json}. */
    public Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("producer", producer);
      m.put("acknowledged", acknowledged);
      m.put("received", received);
      m.put("lost", lost);
      m.put("duplicated", duplicated);
      m.put("outOfOrder", outOfOrder);
      return m;
    }
  }

  /**
   * Every acknowledged message received exactly once and in order: the verifier's verdict; never
   * for a delivery that was not verified.
   */
  public boolean exact() {
    return verified() && lost == 0 && duplicated == 0 && outOfOrder == 0;
  }

  /** Whether the consumers' reads were waited for (the drain) before the counts were taken. */
  public boolean verified() {
    return notVerified == null;
  }

  /**
   * What an unverified delivery could say: {@code not verified: the run stopped before the drain; 1
   * acknowledged message unread}.
   */
  public String notVerifiedLine() {
    return "not verified: "
        + notVerified
        + "; "
        + unread
        + " acknowledged message"
        + (unread == 1 ? "" : "s")
        + " unread";
  }

  /**
   * Whether a health entry of {@code run.json} holds a topic's delivery counts: {@code topic.<T>}
   * with a {@code delivery} map. (The steps of a stepped run, {@code topic.<T>.steps}, do not.)
   *
   * @param key the entry's name
   * @param value its value
   * @return true for a delivery entry
   */
  public static boolean isDeliveryEntry(String key, Object value) {
    return key.startsWith(HEALTH_PREFIX)
        && value instanceof Map<?, ?> m
        && m.get("delivery") instanceof Map<?, ?>;
  }

  /**
   * The delivery counts of every topic of a run, summed over its injectors.
   *
   * @param run the run
   * @return by topic, sorted; empty when no injector recorded any (no topic with consumers, or a
   *     run killed before its end)
   */
  public static Map<String, Delivery> of(RunData run) {
    Map<String, List<Delivery>> perInjector = new TreeMap<>();
    for (RunRecord record : run.injectors()) {
      record
          .manifest()
          .health()
          .forEach(
              (key, value) -> {
                if (isDeliveryEntry(key, value)) {
                  String topic = key.substring(HEALTH_PREFIX.length());
                  perInjector
                      .computeIfAbsent(topic, t -> new ArrayList<>())
                      .add(read(topic, (Map<?, ?>) value));
                }
              });
    }
    Map<String, Delivery> byTopic = new TreeMap<>();
    perInjector.forEach(
        (topic, list) -> {
          Delivery summed = list.stream().reduce(Delivery::plus).orElseThrow();
          if (list.stream().anyMatch(d -> DeliveryCounts.isOneOf(d.notVerified()))) {
            summed = together(run, topic, list, summed);
          }
          byTopic.put(topic, summed);
        });
    return byTopic;
  }

  /**
   * A topic the injectors' readers shared ({@code --injectors N}): verified from every injector's
   * {@link DeliveryBits} once the run holds the N records, one per index, of one test (one run
   * prefix); otherwise not verified, saying why (an injector's reason that is not the sharing
   * itself, the records missing or repeated, bits that cannot be read). One injector's record alone
   * keeps its own reason: its checks are deferred to the records together.
   */
  private static Delivery together(
      RunData run, String topic, List<Delivery> list, Delivery summed) {
    for (Delivery d : list) {
      if (!d.verified() && !DeliveryCounts.isOneOf(d.notVerified())) {
        return summed.notVerified(d.notVerified());
      }
    }
    int injectors = oneOfHowMany(list.get(0).notVerified());
    if (run.injectors().size() == 1) {
      return summed; // one injector's own record: its reason says where it is judged
    }
    java.util.Set<String> indices = new java.util.TreeSet<>();
    for (RunRecord record : run.injectors()) {
      indices.add(String.valueOf(record.manifest().parameters().get("injectorIndex")));
    }
    if (run.injectors().size() != injectors || indices.size() != injectors) {
      return summed.notVerified(
          run.injectors().size()
              + " records of injectors "
              + String.join(", ", indices)
              + ", not the "
              + injectors
              + " injectors' records once each: the delivery is verified from all of them");
    }
    List<DeliveryBits.TopicBits> bits = new ArrayList<>();
    java.util.Set<Long> prefixes = new java.util.TreeSet<>();
    for (RunRecord record : run.injectors()) {
      DeliveryBits.TopicBits b;
      try {
        b = DeliveryBits.read(record.directory()).map(m -> m.get(topic)).orElse(null);
      } catch (io.fusillade.FusilladeException e) {
        return summed.notVerified(e.getMessage());
      }
      if (b != null) {
        b.streams().forEach(s -> prefixes.add(s.producerId() >>> 32));
      }
      if (b == null) {
        return summed.notVerified(
            "the record of injector "
                + record.manifest().runId()
                + " has no "
                + DeliveryBits.FILE
                + " for "
                + topic);
      }
      bits.add(b);
    }
    if (prefixes.size() > 1) {
      return summed.notVerified(
          "the records are of different tests (their messages carry "
              + prefixes.size()
              + " run prefixes): give the records of one test");
    }
    DeliveryCounts merged = DeliveryBits.merge(bits);
    return new Delivery(
        topic,
        summed.partitions,
        summed.consumers,
        merged.acknowledged(),
        merged.received(),
        merged.lost(),
        merged.duplicated(),
        merged.outOfOrder(),
        merged.receivedUnacknowledged(),
        merged.foreign(),
        summed.drained,
        summed.lagTrend,
        partitions(merged),
        producers(merged),
        0,
        null);
  }

  /** The N of {@link DeliveryCounts#oneOf}'s reason; 0 when it does not say. */
  private static int oneOfHowMany(String reason) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("^one of (\\d+) ").matcher(reason);
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  /** The same counts, not verified for {@code why}. */
  private Delivery notVerified(String why) {
    return new Delivery(
        topic,
        partitions,
        consumers,
        acknowledged,
        received,
        0,
        duplicated,
        outOfOrder,
        receivedUnacknowledged,
        foreign,
        drained,
        lagTrend,
        perPartition,
        perProducer,
        unread + lost,
        why);
  }

  /**
   * Whether these counts are one injector's of several whose readers shared a group, judged from
   * their records together and not from this one alone.
   */
  public boolean oneOfSeveral() {
    return DeliveryCounts.isOneOf(notVerified);
  }

  /** One injector's entry {@code topic.<T>}, its {@code delivery} read as the client wrote it. */
  static Delivery read(String topic, Map<?, ?> entry) {
    DeliveryCounts d = DeliveryCounts.fromMap((Map<?, ?>) entry.get("delivery"));
    String trend = entry.get("lagTrend") instanceof Map<?, ?> t ? text(t.get("verdict")) : null;
    return new Delivery(
        topic,
        (int) number(entry, "partitions"),
        (int) number(entry, "consumers"),
        d.acknowledged(),
        d.received(),
        d.verified() ? d.lost() : 0,
        d.duplicated(),
        d.outOfOrder(),
        d.receivedUnacknowledged(),
        d.foreign(),
        !Boolean.FALSE.equals(entry.get("drained")),
        trend,
        partitions(d),
        producers(d),
        d.verified() ? 0 : d.lost(),
        d.notVerified());
  }

  private static List<PartitionDelivery> partitions(DeliveryCounts d) {
    return d.perPartition().stream()
        .map(
            p ->
                new PartitionDelivery(
                    p.partition(),
                    p.counts().acknowledged(),
                    p.counts().received(),
                    p.counts().lost(),
                    p.counts().duplicated(),
                    p.counts().outOfOrder()))
        .toList();
  }

  private static List<ProducerDelivery> producers(DeliveryCounts d) {
    return d.perProducer().stream()
        .map(
            p ->
                new ProducerDelivery(
                    p.producer(),
                    p.counts().acknowledged(),
                    p.counts().received(),
                    p.counts().lost(),
                    p.counts().duplicated(),
                    p.counts().outOfOrder()))
        .toList();
  }

  /** Two injectors' counts of the same topic. */
  Delivery plus(Delivery o) {
    List<PartitionDelivery> parts = List.of();
    if (!perPartition.isEmpty() && !o.perPartition.isEmpty()) {
      Map<Integer, PartitionDelivery> sums = new TreeMap<>();
      for (PartitionDelivery p : perPartition) {
        sums.put(p.partition(), p);
      }
      for (PartitionDelivery p : o.perPartition) {
        sums.merge(p.partition(), p, Delivery::sum);
      }
      parts = new ArrayList<>(sums.values());
    }
    return new Delivery(
        topic,
        Math.max(partitions, o.partitions),
        consumers + o.consumers,
        acknowledged + o.acknowledged,
        received + o.received,
        lost + o.lost,
        duplicated + o.duplicated,
        outOfOrder + o.outOfOrder,
        receivedUnacknowledged + o.receivedUnacknowledged,
        foreign + o.foreign,
        drained && o.drained,
        worse(lagTrend, o.lagTrend),
        parts,
        List.of(),
        unread + o.unread,
        notVerified != null ? notVerified : o.notVerified);
  }

  private static PartitionDelivery sum(PartitionDelivery a, PartitionDelivery b) {
    return new PartitionDelivery(
        a.partition(),
        a.acknowledged() + b.acknowledged(),
        a.received() + b.received(),
        a.lost() + b.lost(),
        a.duplicated() + b.duplicated(),
        a.outOfOrder() + b.outOfOrder());
  }

  /** growing, then unknown, then flat. */
  private static String worse(String a, String b) {
    for (String verdict : List.of("growing", "unknown", "flat")) {
      if (verdict.equals(a) || verdict.equals(b)) {
        return verdict;
      }
    }
    return a != null ? a : b;
  }

  private static long number(Map<?, ?> m, String key) {
    return m.get(key) instanceof Number n ? n.longValue() : 0;
  }

  private static String text(Object o) {
    return o == null ? null : o.toString();
  }

  /**
   * The fields of {@code summary.json}: the counts named as in {@code run.json}, {@code exact},
   * {@code drained}, {@code lagTrend}, {@code partitions}, {@code consumers}, {@code perPartition}
   * and {@code perProducer} (when recorded; a producer's index as {@code producer}).
   */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("acknowledged", acknowledged);
    m.put("received", received);
    m.put("lost", lost);
    m.put("duplicated", duplicated);
    m.put("outOfOrder", outOfOrder);
    m.put("receivedUnacknowledged", receivedUnacknowledged);
    m.put("foreign", foreign);
    m.put("exact", exact());
    m.put("verified", verified());
    if (!verified()) {
      m.put("unread", unread);
      m.put("notVerified", notVerified);
    }
    m.put("drained", drained);
    m.put("lagTrend", lagTrend);
    m.put("partitions", partitions);
    m.put("consumers", consumers);
    if (!perPartition.isEmpty()) {
      m.put("perPartition", perPartition.stream().map(PartitionDelivery::toMap).toList());
    }
    if (!perProducer.isEmpty()) {
      m.put("perProducer", perProducer.stream().map(ProducerDelivery::toMap).toList());
    }
    return m;
  }
}
