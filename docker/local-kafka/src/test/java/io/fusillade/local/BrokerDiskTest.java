package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A broker on a small disk of its own ({@link LocalKafka.Builder#diskSize(long)}): retention by
 * time keeps a write rate below what the disk holds, and writes faster than retention frees fill
 * it, the broker then failing them with its own storage error. Mounting a tmpfs needs root: where
 * it is refused the test is skipped, unless {@code CI=true}, where it fails.
 */
class BrokerDiskTest {
  private static final long MB = 1024 * 1024;

  @Tag("slow") // starts a broker in its own JVM and writes for about 12 s
  @Test
  void retentionByTimeHoldsTheDiskAndWritesBeyondItFailWithTheBrokersStorageError()
      throws Exception {
    Path directory;
    try (LocalKafka kafka = LocalKafka.builder().separateProcess(true).diskSize(16 * MB).start()) {
      BrokerDisk disk = kafka.disks().get(0);
      if (!"true".equals(System.getenv("CI"))) {
        assumeTrue(disk.mounted(), "mounting a tmpfs is not allowed here: " + disk.refusal());
      }
      assertThat(disk.mounted()).as(String.valueOf(disk.refusal())).isTrue();
      directory = disk.directory();
      assertThat(Mounts.mountPointsUnder(directory.toString()))
          .containsExactly(directory.toString());
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
        admin
            .createTopics(
                List.of(
                    new NewTopic("kept-1s", 1, (short) 1)
                        .configs(Map.of("retention.ms", "1000", "segment.bytes", "1048576")),
                    new NewTopic("kept", 1, (short) 1)
                        .configs(Map.of("retention.ms", "-1", "segment.bytes", "1048576"))))
            .all()
            .get(30, TimeUnit.SECONDS);
      }
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(
              Map.of(
                  "bootstrap.servers",
                  kafka.bootstrapServers(),
                  "acks",
                  "all",
                  "linger.ms",
                  "5",
                  "delivery.timeout.ms",
                  "10000",
                  "request.timeout.ms",
                  "5000"),
              new ByteArraySerializer(),
              new ByteArraySerializer())) {
        byte[] value = new byte[1024];
        // 1.5 MB/s for 12 s, 18 MB in all, onto a 16 MB disk: retention by time (1 s, checked
        // every 5 s) deletes the rolled segments, and the disk never fills.
        double most = 0;
        for (int second = 0; second < 12; second++) {
          long start = System.nanoTime();
          Future<?> last = null;
          for (int i = 0; i < 1536; i++) {
            last = producer.send(new ProducerRecord<>("kept-1s", value));
          }
          last.get(10, TimeUnit.SECONDS);
          most = Math.max(most, kafka.diskUsePercent());
          long left = TimeUnit.SECONDS.toNanos(1) - (System.nanoTime() - start);
          if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
          }
        }
        System.out.printf(
            "BrokerDiskTest: 18 MB at 1.5 MB/s, retention.ms 1000: most %.1f%%%n", most);
        assertThat(most).as("the disk was used, and never full").isGreaterThan(5).isLessThan(95);

        // 24 MB as fast as the broker takes it, nothing deleted: the disk fills. The producer
        // retries the broker's KAFKA_STORAGE_ERROR until the broker stops (Kafka halts a broker
        // whose only log directory failed): its own exception, later, is a timeout.
        for (int i = 0; i < 24 * 1024; i++) {
          producer.send(new ProducerRecord<>("kept", value)); // into the producer's 32 MB buffer
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (kafka.diskFailure().isEmpty() && System.nanoTime() < deadline) {
          TimeUnit.MILLISECONDS.sleep(100);
        }
        producer.close(java.time.Duration.ZERO);
        assertThat(kafka.diskUsePercent()).isGreaterThan(99);
        assertThat(kafka.diskFailure())
            .hasValue(
                "broker 0's disk is full: Error while appending records to kept-0: No space left"
                    + " on device");
      }
    }
    assertThat(Mounts.mountPointsUnder(directory.toString())).as("unmounted at close").isEmpty();
    assertThat(directory).doesNotExist();
  }

  @Test
  void aDiskSizeNeedsBrokersInTheirOwnJvmsAndAtLeastOneMebibyte() {
    assertThatThrownBy(() -> LocalKafka.builder().diskSize(1000))
        .hasMessageContaining("at least 1 MiB");
    assertThatThrownBy(() -> LocalKafka.builder().diskSize(8 * MB).start())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("separateProcess(true)");
  }
}
