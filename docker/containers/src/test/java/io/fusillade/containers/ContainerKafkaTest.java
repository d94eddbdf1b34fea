package io.fusillade.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Three KRaft brokers in containers, started once for the class (the suite's one three-broker start
 * in containers): a topic replicated three times loses no acknowledged write when a broker is
 * killed, the broker comes back on its address, and a paused broker answers nothing until resumed.
 * Skipped without a Docker engine, failed without one where CI=true.
 */
@Tag("slow")
class ContainerKafkaTest {
  private static ContainerKafka kafka;

  @BeforeAll
  static void startThreeBrokers() {
    Docker.assumeAvailable();
    // A killed broker is fenced, and leaves the partitions' in-sync replicas, after 4 s without a
    // heartbeat rather than the default 9 s: the writes after the kill wait that long.
    kafka =
        ContainerKafka.builder()
            .brokers(3)
            .setting("broker.session.timeout.ms", "4000")
            .setting("broker.heartbeat.interval.ms", "1000")
            .start();
  }

  @AfterAll
  static void stopThemAndLeaveNothing() {
    if (kafka != null) {
      kafka.close();
      assertThat(Leftovers.ofThisSession()).isEmpty();
    }
  }

  @Test
  void replicationFactorThreeLosesNoAcknowledgedWriteWhenABrokerIsKilled() throws Exception {
    assertThat(kafka.brokers()).isEqualTo(3);
    assertThat(kafka.bootstrapServers().split(",")).hasSize(3);
    if (Docker.hasImage(ContainerKafka.LOCAL_IMAGE) || "true".equals(System.getenv("CI"))) {
      assertThat(kafka.image()).isEqualTo(ContainerKafka.LOCAL_IMAGE);
    }
    try (Admin admin = admin(kafka.bootstrapServers())) {
      assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
      admin
          .createTopics(List.of(new NewTopic("durable", 3, (short) 3)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    Properties settings = new Properties();
    settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    settings.put(ProducerConfig.ACKS_CONFIG, "all");
    settings.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(settings, new StringSerializer(), new StringSerializer())) {
      send(producer, 0, 100);
      kafka.kill(2);
      // min.insync.replicas 2: the two others still acknowledge writes from all replicas
      send(producer, 100, 200);
    }
    List<String> read = readAll("durable", 3);
    assertThat(read).as("every acknowledged write, with broker 2 killed").hasSize(200);
    assertThat(new HashSet<>(read)).as("each once").hasSize(200).contains("m0", "m199");

    kafka.restart(2);
    try (Admin admin = admin(kafka.bootstrapServers().split(",")[1])) {
      assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS))
          .as("broker 2 is back on its address")
          .hasSize(3);
    }
  }

  @Test
  void aPausedBrokerAnswersNothingUntilResumed() throws Exception {
    String third = kafka.bootstrapServers().split(",")[2];
    kafka.pause(3);
    try (Admin admin = impatientAdmin(third)) {
      assertThatThrownBy(() -> admin.describeCluster().nodes().get(5, TimeUnit.SECONDS))
          .as("a paused broker does not answer")
          .isInstanceOf(ExecutionException.class);
    } finally {
      kafka.resume(3);
    }
    try (Admin admin = admin(third)) {
      assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
    }
  }

  private static void send(KafkaProducer<String, String> producer, int from, int to)
      throws Exception {
    for (int i = from; i < to; i++) {
      producer.send(new ProducerRecord<>("durable", "k" + i, "m" + i)).get(60, TimeUnit.SECONDS);
    }
  }

  private static List<String> readAll(String topic, int partitions) {
    Properties settings = new Properties();
    settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<String> values = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(settings, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> all =
          java.util.stream.IntStream.range(0, partitions)
              .mapToObj(p -> new TopicPartition(topic, p))
              .toList();
      consumer.assign(all);
      consumer.seekToBeginning(all);
      Map<TopicPartition, Long> end = consumer.endOffsets(all, Duration.ofSeconds(30));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (all.stream().anyMatch(p -> consumer.position(p) < end.get(p))
          && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          values.add(record.value());
        }
      }
    }
    return values;
  }

  private static Admin admin(String bootstrap) {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
  }

  /** An admin client with short timeouts, so that an unanswered request fails in seconds. */
  private static Admin impatientAdmin(String bootstrap) {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 1500,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2000));
  }
}
