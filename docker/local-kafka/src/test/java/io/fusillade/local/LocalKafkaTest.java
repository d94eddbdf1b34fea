package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class LocalKafkaTest {

  @Tag("slow") // starts a broker
  @Test
  void oneBrokerInThisJvmTakesAndServesMessages() throws Exception {
    try (LocalKafka kafka = LocalKafka.start()) {
      assertThat(kafka.bootstrapServers()).startsWith("127.0.0.1:");
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
        admin
            .createTopics(List.of(new NewTopic("t", 2, (short) 1)))
            .all()
            .get(30, TimeUnit.SECONDS);
      }
      try (KafkaProducer<String, String> producer =
          new KafkaProducer<>(
              Map.of("bootstrap.servers", kafka.bootstrapServers(), "acks", "all"),
              new StringSerializer(),
              new StringSerializer())) {
        producer.send(new ProducerRecord<>("t", 1, "k", "hello")).get(30, TimeUnit.SECONDS);
      }
      try (KafkaConsumer<String, String> consumer =
          new KafkaConsumer<>(
              Map.of("bootstrap.servers", kafka.bootstrapServers()),
              new StringDeserializer(),
              new StringDeserializer())) {
        TopicPartition p1 = new TopicPartition("t", 1);
        consumer.assign(List.of(p1));
        consumer.seekToBeginning(List.of(p1));
        ConsumerRecords<String, String> records = consumer.poll(Duration.ofSeconds(10));
        assertThat(records.count()).isEqualTo(1);
        assertThat(records.iterator().next().value()).isEqualTo("hello");
      }
      assertThatThrownBy(() -> kafka.delayBroker(0, Duration.ofMillis(1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("not started delayable");
      // Freezing a broker in this JVM would freeze the caller: refused, saying what to do instead.
      assertThatThrownBy(() -> kafka.pauseBroker(0))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("separateProcess(true)");
    }
  }

  @Tag("slow") // starts a broker in its own JVM
  @Test
  void aBrokerInItsOwnJvmPausedAnswersNothingUntilResumed() throws Exception {
    try (LocalKafka kafka = LocalKafka.builder().separateProcess(true).start()) {
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()));
          KafkaProducer<String, String> producer =
              new KafkaProducer<>(
                  Map.of("bootstrap.servers", kafka.bootstrapServers()),
                  new StringSerializer(),
                  new StringSerializer())) {
        admin
            .createTopics(List.of(new NewTopic("p", 1, (short) 1)))
            .all()
            .get(30, TimeUnit.SECONDS);
        producer.send(new ProducerRecord<>("p", "k", "before")).get(30, TimeUnit.SECONDS);
        kafka.pauseBroker(0);
        Future<RecordMetadata> during;
        try {
          during = producer.send(new ProducerRecord<>("p", "k", "during"));
          Thread.sleep(1500);
          assertThat(during).as("a send to a frozen broker").isNotDone();
          assertThat(accepts(kafka.port(0))).as("its port still accepts").isTrue();
        } finally {
          kafka.resumeBroker(0);
        }
        assertThat(during.get(30, TimeUnit.SECONDS).offset()).isEqualTo(1);
      }
    }
  }

  @Tag("slow") // starts three brokers in their own JVMs
  @Test
  void threeBrokersInTheirOwnJvmsOneOfWhichCanBeStopped() throws Exception {
    LocalKafka kafka = LocalKafka.builder().brokers(3).separateProcess(true).start();
    try (kafka) {
      assertThat(kafka.bootstrapServers().split(",")).hasSize(3);
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
        admin
            .createTopics(List.of(new NewTopic("r3", 1, (short) 3)))
            .all()
            .get(30, TimeUnit.SECONDS);
        kafka.stopBroker(2);
        assertThat(accepts(kafka.port(2))).isFalse();
        assertThat(accepts(kafka.port(0))).isTrue();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int nodes;
        do {
          nodes = admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).size();
        } while (nodes != 2 && System.nanoTime() < deadline);
        assertThat(nodes).isEqualTo(2);
      }
    }
    assertThat(accepts(kafka.port(0))).as("closed").isFalse();
  }

  @Tag("slow") // starts a broker
  @Test
  void aDelayableBrokersAnswersComeThatMuchLaterWhileDelayedOnly() throws Exception {
    try (LocalKafka kafka = LocalKafka.builder().delayable(0).start();
        Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()));
        KafkaProducer<String, String> producer =
            new KafkaProducer<>(
                Map.of("bootstrap.servers", kafka.bootstrapServers(), "linger.ms", "0"),
                new StringSerializer(),
                new StringSerializer())) {
      admin.createTopics(List.of(new NewTopic("d", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
      producer.send(new ProducerRecord<>("d", "k", "warm-up")).get(30, TimeUnit.SECONDS);
      assertThat(sendMillis(producer)).as("a send, not delayed").isLessThan(350);
      kafka.delayBroker(0, Duration.ofMillis(400));
      assertThat(sendMillis(producer)).as("a send, delayed 400 ms").isBetween(400L, 2_000L);
      kafka.delayBroker(0, Duration.ZERO);
      assertThat(sendMillis(producer)).as("a send, no longer delayed").isLessThan(350);

      // stopped, the broker's advertised port (the proxy's) refuses connections as its own would
      kafka.stopBroker(0);
      assertThat(accepts(kafka.port(0))).as("the proxy of a stopped broker").isFalse();
      kafka.restartBroker(0);
      assertThat(accepts(kafka.port(0))).as("the proxy of a restarted broker").isTrue();
      assertThat(sendMillis(producer)).as("a send after the restart").isLessThan(30_000);
    }
    assertThatThrownBy(
            () -> {
              try (LocalKafka plain = LocalKafka.builder().delayable(1).start()) {
                plain.delayBroker(1, Duration.ofMillis(1));
              }
            })
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("broker index 1 to delay is not one of the 1");
  }

  private static long sendMillis(KafkaProducer<String, String> producer) throws Exception {
    long start = System.nanoTime();
    producer.send(new ProducerRecord<>("d", "k", "v")).get(30, TimeUnit.SECONDS);
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  @Test
  void onlyOneOrThreeBrokers() {
    assertThatThrownBy(() -> LocalKafka.builder().brokers(2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 or 3");
  }

  private static boolean accepts(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return true;
    } catch (Exception e) {
      return false;
    }
  }
}
