package io.fusillade.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalKafka;
import io.fusillade.record.LatencyMetric;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunRecorder;
import io.fusillade.record.SecondCounts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The topic package against one real embedded broker (in this JVM), shared by the tests. */
@Tag("slow")
class TopicClientTest {
  private static LocalKafka kafka;
  private static Admin admin;
  @TempDir static Path runs;

  @BeforeAll
  static void startKafka() {
    kafka = LocalKafka.start();
    admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()));
  }

  @AfterAll
  static void stopKafka() {
    if (admin != null) {
      admin.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  private static RunRecorder recorder(String name) {
    return RunRecorder.open(RunOptions.of(name).withBaseDirectory(runs));
  }

  /** Sends {@code count} messages and waits for every acknowledgement. */
  private static void sendAll(TopicProducer producer, ProducedTopic topic, int count, boolean keyed)
      throws Exception {
    CountDownLatch done = new CountDownLatch(count);
    AtomicInteger failed = new AtomicInteger();
    byte[] value = Payloads.fixed(1, 100).of(100);
    for (int i = 0; i < count; i++) {
      byte[] key = keyed ? ("k" + i).getBytes(StandardCharsets.UTF_8) : null;
      producer.send(
          topic,
          key,
          value,
          null,
          System.nanoTime(),
          (end, error) -> {
            if (error != null) {
              failed.incrementAndGet();
            }
            done.countDown();
          });
    }
    assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(failed).hasValue(0);
  }

  private static TopicConsumerGroup group(
      TopicClientOptions options,
      String topic,
      String groupId,
      int partitions,
      DeliveryVerifier verifier,
      RunRecorder run,
      AtomicLongArray positions) {
    for (int p = 0; p < partitions; p++) {
      positions.set(p, -1);
    }
    return new TopicConsumerGroup(
        options.withConsumer("auto.offset.reset", "earliest").consumerProperties(),
        TopicSpec.of(topic).withConsumers(1),
        groupId,
        partitions,
        verifier,
        run.metric("e2e " + topic),
        run.counter("c"),
        run.counter("b"),
        positions,
        TopicShare.ALONE);
  }

  private static void awaitPositions(AtomicLongArray positions, long... ends) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    for (int p = 0; p < ends.length; p++) {
      while (positions.get(p) < ends[p] && System.nanoTime() < deadline) {
        LockSupport.parkNanos(10_000_000);
      }
      assertThat(positions.get(p)).isEqualTo(ends[p]);
    }
  }

  @Test
  void aQuotaOnTheProducerShowsAsItsThrottleTime() throws Exception {
    String topic = "quota";
    admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
    ClientQuotaEntity client =
        new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "fusillade-throttled"));
    admin
        .alterClientQuotas(
            List.of(
                new ClientQuotaAlteration(
                    client, List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 20_000.0)))))
        .all()
        .get();
    TopicClientOptions options =
        TopicClientOptions.of(kafka.bootstrapServers())
            .withProducer("client.id", "fusillade-throttled");
    TopicClientOptions free = TopicClientOptions.of(kafka.bootstrapServers());
    try (RunRecorder run = recorder("quota");
        TopicProducer producer = new TopicProducer(options.producerProperties());
        TopicProducer unthrottled = new TopicProducer(free.producerProperties())) {
      producer.awaitMetadata(topic, Duration.ofSeconds(30));
      unthrottled.awaitMetadata(topic, Duration.ofSeconds(30));
      ProducedTopic produced =
          new ProducedTopic(
              topic, 1, new DeliveryVerifier(topic), run.counter("m"), run.counter("bytes"));
      // 1,500 messages of 100 bytes: several times the 20 kB/s the brokers allow this client
      sendAll(producer, produced, 1500, false);
      sendAll(unthrottled, produced, 1500, false);
      assertThat(producer.metric("produce-throttle-time-max")).isGreaterThan(0);
      assertThat(unthrottled.metric("produce-throttle-time-max")).isZero();
      assertThat(producer.metric("no-such-metric")).isNaN();
    }
  }

  @Test
  void recordsDeletedBeforeTheyAreReadAreCountedAsLostExactly() throws Exception {
    String topic = "deleted";
    admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
    TopicClientOptions options = TopicClientOptions.of(kafka.bootstrapServers());
    DeliveryVerifier verifier = new DeliveryVerifier(topic);
    try (RunRecorder run = recorder("deleted");
        TopicProducer producer = new TopicProducer(options.producerProperties())) {
      producer.awaitMetadata(topic, Duration.ofSeconds(30));
      ProducedTopic produced =
          new ProducedTopic(topic, 1, verifier, run.counter("m"), run.counter("bytes"));
      sendAll(producer, produced, 1000, false);
      TopicPartition tp = new TopicPartition(topic, 0);
      admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(300))).all().get();

      AtomicLongArray positions = new AtomicLongArray(1);
      try (TopicConsumerGroup group =
          group(options, topic, "g-deleted", 1, verifier, run, positions)) {
        group.start(Duration.ofSeconds(30));
        awaitPositions(positions, 1000);
      }
      LatencyMetric e2e = run.metric("e2e " + topic);
      assertThat(e2e).isNotNull();
    }
    DeliveryVerifier.Report report = verifier.report();
    assertThat(report.acknowledged()).isEqualTo(1000);
    assertThat(report.received()).isEqualTo(700);
    assertThat(report.lost()).isEqualTo(300);
    assertThat(report.duplicated()).isZero();
    assertThat(report.exact()).isFalse();
  }

  /**
   * A reader that falls out of its group (here: slower than {@code max.poll.interval.ms}; in a CI
   * run, a broker restart) rejoins with no offset committed (auto-commit not due yet, as in a run's
   * first seconds, and none made on the way out): it resumes where the group read to, not from the
   * end ({@code auto.offset.reset=latest}), which skipped what was acknowledged meanwhile and
   * counted it lost (2 in one CI run).
   */
  @Test
  void aReaderThatRejoinsWithNoCommittedOffsetResumesWhereTheGroupReadTo() throws Exception {
    String topic = "rejoined";
    admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
    TopicClientOptions options =
        TopicClientOptions.of(kafka.bootstrapServers())
            .withConsumer("auto.commit.interval.ms", "600000")
            .withConsumer("max.poll.interval.ms", "300")
            .withConsumer("max.poll.records", "100");
    DeliveryVerifier verifier = new DeliveryVerifier(topic);
    try (RunRecorder run = recorder("rejoined");
        TopicProducer producer = new TopicProducer(options.producerProperties())) {
      producer.awaitMetadata(topic, Duration.ofSeconds(30));
      ProducedTopic produced =
          new ProducedTopic(topic, 2, verifier, run.counter("m"), run.counter("bytes"));
      AtomicLongArray positions = new AtomicLongArray(2);
      positions.set(0, -1);
      positions.set(1, -1);
      try (TopicConsumerGroup group =
          new TopicConsumerGroup(
              options.consumerProperties(), // latest, as in a run
              TopicSpec.of(topic).withConsumers(1).withProcessingTime(Duration.ofMillis(5)),
              "g-rejoined",
              2,
              verifier,
              run.metric("e2e " + topic),
              run.counter("c"),
              run.counter("b"),
              positions,
              TopicShare.ALONE)) {
        group.start(Duration.ofSeconds(30));
        // 100 a poll at 5 ms each: 500 ms, past the poll interval, so the reader leaves and
        // rejoins while messages keep coming
        for (int i = 0; i < 10; i++) {
          sendAll(producer, produced, 50, true);
          TimeUnit.MILLISECONDS.sleep(150);
        }
        awaitPositions(positions, inPartition(verifier, 0), inPartition(verifier, 1));
      }
    }
    DeliveryVerifier.Report report = verifier.report();
    assertThat(report.acknowledged()).isEqualTo(500);
    assertThat(report.lost()).isZero();
    assertThat(report.received()).isGreaterThanOrEqualTo(500);
  }

  private static long inPartition(DeliveryVerifier verifier, int partition) {
    return verifier.report().streams().stream()
        .filter(s -> s.partition() == partition)
        .mapToLong(DeliveryVerifier.StreamReport::acknowledged)
        .sum();
  }

  @Test
  void offsetsSkippedByTheGroupAreCountedAsLostExactly() throws Exception {
    String topic = "skipped";
    admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
    TopicClientOptions options = TopicClientOptions.of(kafka.bootstrapServers());
    DeliveryVerifier verifier = new DeliveryVerifier(topic);
    try (RunRecorder run = recorder("skipped");
        TopicProducer producer = new TopicProducer(options.producerProperties())) {
      producer.awaitMetadata(topic, Duration.ofSeconds(30));
      ProducedTopic produced =
          new ProducedTopic(topic, 2, verifier, run.counter("m"), run.counter("bytes"));
      sendAll(producer, produced, 1000, true);
      DeliveryVerifier.Report sent = verifier.report();
      long inFirst =
          sent.streams().stream()
              .filter(s -> s.partition() == 0)
              .mapToLong(DeliveryVerifier.StreamReport::acknowledged)
              .sum();
      assertThat(inFirst).isBetween(100L, 900L);
      // The group starts 100 messages into partition 0, as if a reader had skipped them.
      admin
          .alterConsumerGroupOffsets(
              "g-skipped", Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(100)))
          .all()
          .get();
      AtomicLongArray positions = new AtomicLongArray(2);
      try (TopicConsumerGroup group =
          group(options, topic, "g-skipped", 2, verifier, run, positions)) {
        group.start(Duration.ofSeconds(30));
        awaitPositions(positions, inFirst, 1000 - inFirst);
      }
    }
    DeliveryVerifier.Report report = verifier.report();
    assertThat(report.acknowledged()).isEqualTo(1000);
    assertThat(report.lost()).isEqualTo(100);
    assertThat(report.received()).isEqualTo(900);
    assertThat(report.outOfOrder()).isZero();
  }

  /**
   * A topic's own writers (the seed's "streams"): three producers taking four threads' sends in
   * turn, each exactly a third of them, each its own stream of the verifier, numbered in send order
   * under its lock whichever thread sent: every stream exact, none out of order.
   */
  @Test
  void threeProducersEachWriteAThirdInOrderWhateverThreadSends() throws Exception {
    String topic = "streams";
    TopicClientOptions options =
        TopicClientOptions.of(kafka.bootstrapServers())
            .withTopic(TopicSpec.of(topic).withPartitions(2).withConsumers(1).withProducers(3));
    RunRecorder run = recorder("streams");
    DeliveryVerifier.Report report;
    try (run) {
      TopicClient client = TopicClient.open(options, run);
      ProducedTopic produced = client.topic(topic);
      byte[] value = Payloads.fixed(1, 100).of(100);
      int threads = 4;
      int perThread = 1_500;
      CountDownLatch acknowledged = new CountDownLatch(threads * perThread);
      AtomicInteger failed = new AtomicInteger();
      List<Thread> senders = new java.util.ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Thread sender =
            new Thread(
                () -> {
                  for (int i = 0; i < perThread; i++) {
                    client.send(
                        produced,
                        null,
                        value,
                        null,
                        System.nanoTime(),
                        (end, error) -> {
                          if (error != null) {
                            failed.incrementAndGet();
                          }
                          acknowledged.countDown();
                        });
                  }
                });
        senders.add(sender);
        sender.start();
      }
      for (Thread sender : senders) {
        sender.join();
      }
      assertThat(acknowledged.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(failed).hasValue(0);
      client.close();
      report = client.delivery(topic);
    }
    assertThat(report.exact()).as(report.toString()).isTrue();
    assertThat(report.acknowledged()).isEqualTo(6_000);
    assertThat(report.received()).isEqualTo(6_000);
    Map<Long, Long> perProducer = new java.util.TreeMap<>();
    for (DeliveryVerifier.StreamReport stream : report.streams()) {
      perProducer.merge(stream.producerId() & 0xffffffffL, stream.acknowledged(), Long::sum);
      assertThat(stream.outOfOrder()).as("stream %s", stream).isZero();
      assertThat(stream.received()).isEqualTo(stream.acknowledged());
    }
    assertThat(perProducer)
        .containsExactly(Map.entry(0L, 2_000L), Map.entry(1L, 2_000L), Map.entry(2L, 2_000L));
    RunRecord record = RunRecordReader.read(run.directory());
    @SuppressWarnings("unchecked")
    Map<String, Object> health =
        (Map<String, Object>) record.manifest().health().get("topic." + topic);
    assertThat(health.get("producers")).isInstanceOf(Number.class);
    assertThat(((Number) health.get("producers")).intValue()).isEqualTo(3);
  }

  @Test
  void aSlowReaderMakesLagGrowAndTheCheckFailWithoutHangingTheEnd() throws Exception {
    String topic = "slow";
    TopicClientOptions options =
        TopicClientOptions.of(kafka.bootstrapServers())
            .withTopic(
                TopicSpec.of(topic)
                    .withPartitions(2)
                    .withConsumers(1)
                    .withProcessingTime(Duration.ofMillis(5)))
            .withDrainTimeout(Duration.ofSeconds(1));
    RunRecorder run = recorder("slow");
    long closeTook;
    try (run) {
      TopicClient client = TopicClient.open(options, run);
      ProducedTopic produced = client.topic(topic);
      byte[] value = Payloads.fixed(1, 100).of(100);
      // 600 messages/s for 12 s; the reader handles at most 200/s.
      long start = System.nanoTime();
      long period = 1_000_000_000L / 600;
      for (int i = 0; i < 600 * 12; i++) {
        long due = start + i * period;
        LockSupport.parkNanos(due - System.nanoTime());
        client.send(produced, null, value, null, System.nanoTime(), (end, error) -> {});
      }
      assertThat(client.lagTrend(topic).verdict()).isEqualTo(LagTrend.Verdict.GROWING);
      long before = System.nanoTime();
      client.close();
      closeTook = System.nanoTime() - before;
    }
    assertThat(Duration.ofNanos(closeTook)).isLessThan(Duration.ofSeconds(15));
    RunRecord record = RunRecordReader.read(run.directory());
    @SuppressWarnings("unchecked")
    Map<String, Object> health = (Map<String, Object>) record.manifest().health().get("topic.slow");
    assertThat(health).containsEntry("drained", false);
    @SuppressWarnings("unchecked")
    Map<String, Object> trend = (Map<String, Object>) health.get("lagTrend");
    assertThat(trend).containsEntry("verdict", "growing").containsEntry("notGrowing", false);
    assertThat(record.manifest().flags()).anyMatch(f -> f.contains("consumer lag grew"));
    double lastLag =
        record.seconds().stream()
            .map(SecondCounts::gauges)
            .map(g -> g.get("topic.slow.lag"))
            .filter(v -> v != null && !v.isNaN())
            .reduce((a, b) -> b)
            .orElseThrow();
    assertThat(lastLag).isGreaterThan(2000);
    // the median second (a flush late on a loaded machine puts more than a second in one)
    long[] perSecond =
        record.seconds().stream()
            .mapToLong(s -> s.counters().getOrDefault("topic.slow.produced.messages", 0L))
            .filter(n -> n > 0)
            .sorted()
            .toArray();
    assertThat(perSecond).isNotEmpty();
    assertThat(perSecond[perSecond.length / 2]).isBetween(500L, 700L);
  }
}
