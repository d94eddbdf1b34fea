package io.fusillade.topic;

import io.fusillade.FusilladeException;
import io.fusillade.record.DeliveryBits;
import io.fusillade.record.DeliveryCounts;
import io.fusillade.record.RunRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything one run needs to write to and read from Kafka-API topics, wired to the run recorder:
 * one producer (a topic with {@code producers} has its own, {@link TopicWriters}), a consumer group
 * per declared topic that has consumers, lag sampling, delivery verification.
 *
 * <p>{@link #open} prepares everything before the load starts: topics created or checked, producer
 * metadata fetched, consumers assigned and positioned. {@link #close()} ends the run's topic work:
 * the producer is flushed, consumers drain for at most {@link TopicClientOptions#drainTimeout()},
 * and each topic's verdicts go into {@code run.json}'s health.
 *
 * <p>What it records, per topic {@code T}:
 *
 * <ul>
 *   <li>metric {@code e2e T}: end-to-end latency, send to receipt, on the injector's monotonic
 *       clock (on the test's reference clock for an injector of several, {@link TopicShare});
 *   <li>counters {@code topic.T.produced.messages}, {@code topic.T.produced.bytes} (acknowledged),
 *       {@code topic.T.consumed.messages}, {@code topic.T.consumed.bytes}: per second in {@code
 *       counters.jsonl};
 *   <li>gauge {@code topic.T.lag}: consumer lag in messages, once a second;
 *   <li>gauges {@value #THROTTLE_AVG_GAUGE} and {@value #THROTTLE_MAX_GAUGE}: the time, ms, the
 *       brokers held the producer's requests back for a quota (the producer's {@code
 *       produce-throttle-time-avg} and {@code -max}), 0 when no quota applies;
 *   <li>health {@code topic.T}: the delivery verifier's counts (totals, per partition: see {@link
 *       DeliveryVerifier.Report#toMap()}), the lag trend while the load ran (see {@link LagTrend};
 *       the drain after it is left out) with {@code notGrowing}, and whether the drain completed. A
 *       run whose record closed before the drain (stopped by a signal, an abort rule, the end of
 *       the process that started it) is not verified: its counts cover the messages acknowledged by
 *       the record's last flush, those not read then are {@code unread}, never {@code lost} ({@link
 *       DeliveryVerifier.Report#toUnverifiedMap}). Nor is an injector's of several ({@link
 *       TopicShare}): it writes its verifier's bits beside {@code run.json} ({@link DeliveryBits}),
 *       from which the injectors' records together are verified.
 * </ul>
 *
 * <p>Why one class of over 500 lines: the producer, the readers and the delivery verifier share one
 * set of sequence numbers and one life cycle (topics checked before the load, readers drained
 * before the verdict, everything closed in one order); the parts that stand alone are already
 * classes of their own (DeliveryVerifier, SequenceBits, TopicClientOptions).
 */
public final class TopicClient implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TopicClient.class);

  /** The producer's average throttle time, ms, over the client's metric window. */
  public static final String THROTTLE_AVG_GAUGE = "topic.producer.throttle.avg";

  /** The producer's longest throttle time, ms, over the client's metric window. */
  public static final String THROTTLE_MAX_GAUGE = "topic.producer.throttle.max";

  private final TopicClientOptions options;
  private final RunRecorder recorder;
  private final Admin admin;
  private final TopicProducer producer;
  private final BrokerWatch brokers;
  private final long startNanos = System.nanoTime();
  private final long openEpochMs = System.currentTimeMillis();
  private final Map<String, State> topics = new ConcurrentHashMap<>();
  private final ScheduledExecutorService sampler;
  private volatile boolean closed;
  private volatile double loadEndSeconds = Double.MAX_VALUE;
  private volatile long firstSendNanos;

  private TopicClient(TopicClientOptions options, RunRecorder recorder) {
    this.options = options;
    this.recorder = recorder;
    this.admin = Admin.create(options.adminProperties());
    this.producer = new TopicProducer(options.producerProperties(), options.share());
    // Quotas are the brokers' way of slowing a producer down without an error: the time they held
    // its requests back, so that a run against a throttled cluster says so.
    TopicProducer throttled = producer;
    recorder.gauge(
        THROTTLE_AVG_GAUGE, () -> Math.max(0, throttled.metric("produce-throttle-time-avg")));
    recorder.gauge(
        THROTTLE_MAX_GAUGE, () -> Math.max(0, throttled.metric("produce-throttle-time-max")));
    this.brokers = new BrokerWatch(options.bootstrapServers(), recorder);
    this.sampler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "fusillade-topic-lag");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Opens the client and prepares every declared topic (see {@link #topic(String)}).
   *
   * @throws FusilladeException when Kafka cannot be reached, a topic is missing and must not be
   *     created, or consumers are not assigned in time
   */
  public static TopicClient open(TopicClientOptions options, RunRecorder recorder) {
    TopicClient client = new TopicClient(options, recorder);
    try {
      for (TopicSpec spec : options.topics()) {
        client.prepare(spec);
      }
      client.recordIdentity();
      client.sampler.scheduleAtFixedRate(client::sampleAll, 1, 1, TimeUnit.SECONDS);
      // Where acknowledgements stood at each flush of the record: a run stopped before the drain
      // is verified up to its record's last flush, the messages its request table counts. Taken
      // right after the flush took the requests' intervals: an acknowledgement is noted before its
      // request is recorded, so the cut holds every write the table counts, and the few
      // acknowledged since the swap.
      recorder.listen(
          new io.fusillade.record.FlushListener() {
            @Override
            public void requestsEnd() {
              client.topics.values().forEach(State::noteCut);
            }
          });
      recorder.onFinish(client::writeHealth);
      return client;
    } catch (RuntimeException e) {
      client.abort();
      throw e;
    }
  }

  public TopicClientOptions options() {
    return options;
  }

  /**
   * Records the cluster's identity as {@code run.json}'s {@code topic.server} ({@link
   * ClusterIdentity}); one that cannot be read is logged, not fatal.
   */
  private void recordIdentity() {
    try {
      recorder.parameter(
          "topic.server",
          ClusterIdentity.of(
              admin,
              options.topics().stream().map(TopicSpec::name).toList(),
              options.readyTimeout()));
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.warn("Could not read what Kafka cluster this is: {}", KafkaErrors.reason(e));
    }
  }

  /**
   * The topic, prepared now if it was not declared: created when missing (1 partition unless
   * declared), metadata fetched. A topic that was not declared has no consumers. Call it before the
   * load starts: it blocks.
   */
  public ProducedTopic topic(String name) {
    State state = topics.get(name);
    if (state == null) {
      synchronized (this) {
        state = topics.get(name);
        if (state == null) {
          state = prepare(TopicSpec.of(name));
        }
      }
    }
    return state.produced;
  }

  /**
   * Sends one stamped message without blocking; {@code done} runs on the client's I/O thread (or at
   * once on this thread if the send fails immediately).
   *
   * <p>While every bootstrap endpoint refuses connections ({@link BrokerWatch}), the send fails at
   * once with {@code "connection refused: host:port"} and never reaches the producer: it takes no
   * sequence number and is not counted by the delivery verifier (it was never acknowledged, so it
   * cannot be lost), and it does not wait in the producer's buffer for the delivery timeout.
   */
  public void send(
      ProducedTopic topic,
      byte[] key,
      byte[] value,
      List<Header> headers,
      long startNanos,
      SendCompletion done) {
    if (firstSendNanos == 0) {
      firstSendNanos = startNanos;
    }
    String down = brokers.allDownReason();
    if (down != null) {
      done.completed(System.nanoTime(), new KafkaErrors.NodeDown(down));
      return;
    }
    // the stamp's time: the due time, on the test's reference clock when it has several injectors
    long stamped = startNanos + options.share().clockBaseNanos();
    State own = topics.get(topic.name());
    if (own != null && own.writers != null) {
      own.writers.send(topic, key, value, headers, stamped, done);
    } else {
      producer.send(topic, key, value, headers, stamped, done);
    }
  }

  /** The delivery counts of a topic so far. */
  public DeliveryVerifier.Report delivery(String topic) {
    return state(topic).produced.verifier().report();
  }

  /** The lag trend of a topic between two times, in seconds since this client opened. */
  public LagTrend.Result lagTrend(String topic, double fromSeconds, double toSeconds) {
    return state(topic).lag.trend(fromSeconds, toSeconds);
  }

  /** The lag trend of a topic over the run so far. */
  public LagTrend.Result lagTrend(String topic) {
    return lagTrend(topic, 0, Double.MAX_VALUE);
  }

  /**
   * What happened to a topic between two times (seconds since this client opened): write and read
   * rates, the lag trend, lost messages among those acknowledged in the window. Windows are cut at
   * the once-a-second samples nearest inside them.
   */
  public Window window(String topic, double fromSeconds, double toSeconds) {
    State s = state(topic);
    if (s.lag == null) {
      throw new IllegalArgumentException("topic '" + topic + "' has no consumers");
    }
    List<LagSampler.Point> points =
        s.lag.points().stream()
            .filter(p -> p.seconds() >= fromSeconds && p.seconds() <= toSeconds)
            .toList();
    LagTrend.Result trend = s.lag.trend(fromSeconds, toSeconds);
    if (points.size() < 2) {
      return new Window(fromSeconds, toSeconds, 0, 0, 0, trend, 0);
    }
    LagSampler.Point first = points.get(0);
    LagSampler.Point last = points.get(points.size() - 1);
    double span = last.seconds() - first.seconds();
    return new Window(
        first.seconds(),
        last.seconds(),
        (last.produced() - first.produced()) / span,
        (last.producedBytes() - first.producedBytes()) / span,
        (last.consumedBytes() - first.consumedBytes()) / span,
        trend,
        s.produced.verifier().lostBetween(first.marks(), last.marks()));
  }

  /**
   * A topic over a window of the run.
   *
   * @param fromSeconds the first sample in it
   * @param toSeconds the last sample in it
   * @param messagesPerSecond acknowledged messages per second
   * @param writeBytesPerSecond acknowledged value bytes per second
   * @param readBytesPerSecond consumed value bytes per second
   * @param lagTrend the lag trend in the window
   * @param lost messages acknowledged in the window and never received (final after the drain)
   */
  public record Window(
      double fromSeconds,
      double toSeconds,
      double messagesPerSecond,
      double writeBytesPerSecond,
      double readBytesPerSecond,
      LagTrend.Result lagTrend,
      long lost) {}

  /** When the first message was sent, in seconds since this client opened (NaN: none yet). */
  public double firstSendSeconds() {
    long first = firstSendNanos;
    return first == 0 ? Double.NaN : (first - startNanos) / 1e9;
  }

  /** Wall-clock time this client opened, in epoch milliseconds. */
  public long openEpochMs() {
    return openEpochMs;
  }

  /**
   * Seconds since this client opened, on the clock of {@link #lagTrend(String, double, double)}.
   */
  public double secondsSinceOpen() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private State state(String topic) {
    State state = topics.get(topic);
    if (state == null) {
      throw new IllegalArgumentException("no topic '" + topic + "' in this run");
    }
    return state;
  }

  private State prepare(TopicSpec spec) {
    Duration timeout = options.readyTimeout();
    int partitions = TopicAdmin.ensure(admin, spec, options.bootstrapServers(), timeout);
    int seen = producer.awaitMetadata(spec.name(), timeout);
    if (seen != partitions) {
      LOG.warn("Topic {}: {} partitions, the producer sees {}", spec.name(), partitions, seen);
      partitions = Math.min(partitions, seen);
    }
    String t = spec.name();
    TopicShare share = options.share();
    ProducedTopic produced =
        new ProducedTopic(
            t,
            partitions,
            share.alone() ? new DeliveryVerifier(t) : new DeliveryVerifier(t, share.runPrefix()),
            recorder.counter("topic." + t + ".produced.messages"),
            recorder.counter("topic." + t + ".produced.bytes"));
    AtomicLongArray positions = new AtomicLongArray(partitions);
    for (int p = 0; p < partitions; p++) {
      positions.set(p, -1);
    }
    TopicConsumerGroup group = null;
    LagSampler lag = null;
    String groupId =
        spec.group() != null
            ? spec.group()
            : share.alone()
                ? "fusillade-" + t + "-" + UUID.randomUUID().toString().substring(0, 8)
                : share.groupId(t);
    if (share.ownOf(spec.consumers()) > 0) {
      group =
          new TopicConsumerGroup(
              options.consumerProperties(),
              spec,
              groupId,
              partitions,
              produced.verifier(),
              recorder.metric("e2e " + t),
              recorder.counter("topic." + t + ".consumed.messages"),
              recorder.counter("topic." + t + ".consumed.bytes"),
              positions,
              share);
      group.start(timeout);
      lag =
          new LagSampler(
              admin,
              t,
              positions,
              produced,
              recorder.counter("topic." + t + ".consumed.bytes"),
              startNanos);
      LagSampler sampled = lag;
      recorder.gauge("topic." + t + ".lag", sampled::current);
    }
    TopicWriters writers = null;
    try {
      if (!share.alone() && spec.consumers() > 0) {
        // no injector sends before every partition has a reader positioned, whichever's it is
        TopicGroupWait.awaitStable(admin, spec, groupId, partitions, group, share, timeout);
      }
      if (spec.producers() > 0) {
        writers = TopicWriters.open(options.producerProperties(), spec, share, timeout);
      }
    } catch (RuntimeException e) {
      if (group != null) {
        group.close();
      }
      throw e;
    }
    State state = new State(spec, produced, group, lag, positions, writers, groupId);
    topics.put(t, state);
    return state;
  }

  private void sampleAll() {
    boolean down = brokers.allDownReason() != null;
    for (State s : topics.values()) {
      if (s.lag != null) {
        try {
          s.lag.sample(down);
        } catch (RuntimeException e) {
          LOG.debug("Lag sample of {} failed: {}", s.spec.name(), e.toString());
        }
      }
    }
  }

  /**
   * Ends the topic work of the run: flushes the producer (in-flight sends get at most the delivery
   * timeout), lets consumers drain, stops them. Never waits for messages that do not come.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    // The lag trend is judged while the load runs, not while consumers drain afterwards.
    loadEndSeconds = secondsSinceOpen();
    producer.close(Duration.ofSeconds(5));
    for (State s : topics.values()) {
      if (s.writers != null) {
        s.writers.close(Duration.ofSeconds(5));
      }
    }
    brokers.close();
    if (!options.share().alone()) {
      // this injector's writes are all answered: the others' readers may stop once every
      // injector has said so and the group has read to the ends
      for (State s : topics.values()) {
        if (s.spec.consumers() > 0) {
          TopicGroupWait.markWritten(admin, s.spec.name(), options.share());
        }
      }
    }
    for (State s : topics.values()) {
      if (s.group == null) {
        s.drained = true; // nothing read here to wait for
        s.drainEnded = true;
      } else {
        s.drained =
            options.share().alone()
                ? drain(s)
                : TopicGroupWait.drain(
                    admin,
                    s.groupId,
                    s.spec.name(),
                    options.share(),
                    () -> s.lag.endOffsets(2000),
                    s.positions,
                    System.nanoTime() + options.drainTimeout().toNanos());
        s.group.close();
        s.drainEnded = true; // after the readers stopped: the counts taken now are final
        if (s.spec.sink() != null) {
          // now, while the sink's database runs: the health is written when the record closes
          try {
            s.sinkAudit = s.spec.sink().audit(s.spec.name());
          } catch (RuntimeException e) {
            LOG.warn("Topic {}: the sink could not be audited: {}", s.spec.name(), e.toString());
          }
        }
      }
    }
    sampler.shutdownNow();
    admin.close(Duration.ofSeconds(3));
  }

  private void abort() {
    closed = true;
    topics
        .values()
        .forEach(
            s -> {
              if (s.group != null) {
                s.group.close();
              }
              if (s.writers != null) {
                s.writers.close(Duration.ZERO);
              }
            });
    sampler.shutdownNow();
    brokers.close();
    producer.close(Duration.ZERO);
    admin.close(Duration.ZERO);
  }

  /** Waits until consumers have read up to the end offsets, at most the drain timeout. */
  private boolean drain(State s) {
    long deadline = System.nanoTime() + options.drainTimeout().toNanos();
    Map<TopicPartition, Long> targets = s.lag.endOffsets(2000);
    while (System.nanoTime() < deadline) {
      if (targets != null) {
        boolean done = true;
        for (Map.Entry<TopicPartition, Long> e : targets.entrySet()) {
          if (s.positions.get(e.getKey().partition()) < e.getValue()) {
            done = false;
            break;
          }
        }
        if (done) {
          return true;
        }
      } else if (System.nanoTime() - s.group.lastReceiveNanos() > 1_000_000_000L) {
        return false; // brokers unreachable and nothing arriving: stop waiting
      }
      try {
        TimeUnit.MILLISECONDS.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return false;
  }

  private void writeHealth() {
    TopicShare share = options.share();
    List<DeliveryBits.TopicBits> bits = new ArrayList<>();
    for (State s : topics.values()) {
      if (share.alone() ? s.group == null : s.spec.consumers() == 0) {
        continue;
      }
      if (!share.alone()) {
        bits.add(s.produced.verifier().bits());
      }
      // The record closes before the drain when the run was stopped (a signal, an abort rule, the
      // end of the process that started it): what was not read then is unread, not lost.
      boolean verified = s.drainEnded;
      DeliveryVerifier.Report report =
          verified ? s.produced.verifier().report() : s.produced.verifier().reportUpTo(s.cut);
      LagTrend.Result trend = s.lag == null ? null : s.lag.trend(0, loadEndSeconds);
      Map<String, Object> health = new LinkedHashMap<>();
      health.put("consumers", s.group == null ? 0 : s.group.count());
      if (s.writers != null) {
        health.put("producers", s.writers.count());
      }
      health.put("partitions", s.produced.partitions());
      // An injector of several counts the others' messages its readers got, and not its own that
      // theirs got: its delivery is verified from all their records (DeliveryBits), not alone.
      String why =
          !verified ? NOT_VERIFIED : share.alone() ? null : DeliveryCounts.oneOf(share.injectors());
      health.put("delivery", why == null ? report.toMap() : report.toUnverifiedMap(why));
      if (trend != null) {
        health.put("lagTrend", trendMap(trend));
      }
      health.put("drained", s.drained);
      recorder.health("topic." + s.spec.name(), health);
      if (s.sinkAudit != null) {
        recorder.health("topic." + s.spec.name() + ".sink", s.sinkAudit);
        Object duplicated = s.sinkAudit.get("duplicated");
        if (duplicated instanceof Number n && n.longValue() > 0) {
          recorder.flag("topic " + s.spec.name() + ": the sink holds " + n + " duplicated rows");
        }
      }
      if (verified && share.alone() && !report.exact()) {
        recorder.flag(
            "topic "
                + s.spec.name()
                + ": "
                + report.lost()
                + " lost, "
                + report.duplicated()
                + " duplicated, "
                + report.outOfOrder()
                + " out of order");
      }
      if (trend != null && trend.verdict() == LagTrend.Verdict.GROWING) {
        recorder.flag("topic " + s.spec.name() + ": consumer lag grew — readers did not keep up");
      }
    }
    if (!bits.isEmpty()) {
      try {
        DeliveryBits.write(recorder.directory(), bits);
      } catch (java.io.IOException | RuntimeException e) {
        recorder.flag(
            "the delivery bits of this injector could not be written ("
                + e.getMessage()
                + "): the injectors' delivery cannot be verified together");
      }
    }
  }

  /** A lag trend as it appears in {@code run.json}. */
  public static Map<String, Object> trendMap(LagTrend.Result trend) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("verdict", trend.verdict().name().toLowerCase(java.util.Locale.ROOT));
    m.put("notGrowing", trend.notGrowing());
    m.put("slopePerSecond", round(trend.slopePerSecond()));
    m.put("pValue", round(trend.pValue()));
    m.put("thresholdPerSecond", round(trend.thresholdPerSecond()));
    m.put("samples", trend.samples());
    return m;
  }

  private static Object round(double v) {
    return Double.isFinite(v) ? Math.round(v * 1000) / 1000.0 : null;
  }

  /** Per declared or used topic. */
  private static final class State {
    final TopicSpec spec;
    final ProducedTopic produced;
    final TopicConsumerGroup group;
    final LagSampler lag;
    final AtomicLongArray positions;
    final TopicWriters writers; // the topic's own producers, or null for the run's one
    final String groupId;
    volatile boolean drained;
    volatile boolean drainEnded; // the drain was waited for, to its end or its timeout
    volatile Map<Object, Long> cut = Map.of(); // acknowledgements at the record's last flush
    volatile Map<String, Object> sinkAudit; // taken when the consumers stopped, or null

    /** Notes where the acknowledgements stand, at a flush of the record. */
    void noteCut() {
      cut = produced.verifier().marks();
    }

    State(
        TopicSpec spec,
        ProducedTopic produced,
        TopicConsumerGroup group,
        LagSampler lag,
        AtomicLongArray positions,
        TopicWriters writers,
        String groupId) {
      this.groupId = groupId;
      this.spec = spec;
      this.produced = produced;
      this.group = group;
      this.lag = lag;
      this.positions = positions;
      this.writers = writers;
    }
  }

  /** Why a stopped run's delivery is not verified, in {@code run.json}. */
  public static final String NOT_VERIFIED = "the run stopped before the drain";

  @Override
  public String toString() {
    return "TopicClient[" + options + "]";
  }

  /** The brokers' up/down state, for tests. */
  io.fusillade.health.NodeWatch brokers() {
    return brokers.nodes();
  }

  /** For tests of the drain: the topics' names. */
  List<String> topicNames() {
    return new ArrayList<>(topics.keySet());
  }
}
