package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gen.Distribution;
import io.fusillade.gen.ValueType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code topics:} and {@code kafka:} sections of a workload. */
class TopicWorkloadTest {

  @Test
  void aTopicWorkloadIsReadWithItsDistributionsAndSettings() {
    Workload w =
        WorkloadLoader.parse(
                "t.yml",
                """
                config_name: t
                kafka:
                  bootstrap_servers: ${env:BOOT}
                  properties:
                    security.protocol: SASL_SSL
                    sasl.jaas.config: ${env:JAAS}
                topics:
                  - name: events
                    partitions: 8
                    replication: 3
                    consumers: 4
                    configs: {retention.ms: 60000}
                    message_size: {type: integer, range: [100, 2000], distribution: normal}
                    key: {type: long, range: [1, 1000], distribution: zipf, distribution_param: 1.1}
                    producer: {linger.ms: 5}
                    rate: 2000
                    duration: 90s
                  - name: stepped
                    message_size: 1024
                    steps: {start: 1000, increment: 500, count: 4, duration: 20s}
                """,
                Map.of("BOOT", "k1:9092,k2:9092", "JAAS", "secret-jaas")::get)
            .orThrow();
    assertThat(w.kafka())
        .get()
        .extracting(KafkaConnection::bootstrapServers)
        .isEqualTo("k1:9092,k2:9092");
    assertThat(w.kafka().get().properties()).containsEntry("sasl.jaas.config", "secret-jaas");
    assertThat(w.kafka().get().toString()).doesNotContain("secret-jaas");
    TopicWorkload events = w.topics().get(0);
    assertThat(events.partitions()).isEqualTo(8);
    assertThat(events.replication()).isEqualTo(3);
    assertThat(events.consumers()).isEqualTo(4);
    assertThat(events.create()).isTrue();
    assertThat(events.configs()).containsEntry("retention.ms", "60000");
    assertThat(events.messageSize().distribution().kind()).isEqualTo(Distribution.Kind.NORMAL);
    assertThat(events.key()).get().extracting(k -> k.type()).isEqualTo(ValueType.LONG);
    assertThat(events.producer()).containsEntry("linger.ms", "5");
    assertThat(events.rate()).isEqualTo(2000.0);
    assertThat(events.duration()).isEqualTo(Duration.ofSeconds(90));
    TopicWorkload stepped = w.topics().get(1);
    assertThat(stepped.consumers()).isEqualTo(1);
    assertThat(stepped.messageSize().lower()).isEqualTo(1024L);
    assertThat(stepped.steps())
        .isEqualTo(new TopicWorkload.Steps(1000, 500, 4, Duration.ofSeconds(20)));
    assertThat(WorkloadCommands.summary(w, 1))
        .contains("kafka: k1:9092,k2:9092")
        .contains("events: 8 partitions, replication 3, 4 consumers, 2000/s for 90 s")
        .contains("stepped: 1 partitions, replication 1, 1 consumers, steps from 1000/s by 500 x4")
        .doesNotContain("secret-jaas");
  }

  @Test
  void mistakesAreReportedWithFileLineColumnAndField() {
    LoadResult result =
        WorkloadLoader.parse(
            "bad.yml",
            """
            kafka:
              properties:
                sasl.jaas.config: plain-secret
            topics:
              - name: a
                partitions: 0
                message_size: {type: string}
                rate: 10
                steps: {start: 5, count: 2, duration: 5s}
                duration: soon
                linger: 5
              - name: a
                rate: 1
              - name: b
            """,
            name -> null);
    assertThat(result.problems())
        .extracting(Problem::toString)
        .containsExactly(
            "bad.yml:3:23 kafka.properties.sasl.jaas.config: a secret must not be written in the"
                + " file; use ${env:NAME}",
            "bad.yml:6:17 topics[0].partitions: partitions must be in [1, 2147483647]",
            "bad.yml:7:19 topics[0].message_size: message sizes come from an integer or long spec",
            "bad.yml:9:12 topics[0].steps: give rate or steps, not both",
            "bad.yml:10:15 topics[0].duration: expected a duration > 0 such as 60, 30s, 500ms, 2m"
                + " or 1h, got the string \"soon\"",
            "bad.yml:11:5 topics[0].linger: unknown key 'linger'",
            "bad.yml:12:11 topics[1].name: duplicate topic 'a' (first at line 5)",
            "bad.yml:14:5 topics[2]: a topic needs rate (messages per second) or steps");
  }

  @Test
  void anEmbeddedDiskSizeIsASizeOfAtLeastOneMebibyteForTheEmbeddedBrokersOnly() {
    LoadResult good =
        WorkloadLoader.parse(
            "t.yml", "kafka: {embedded_disk_size: 16MB}\ntopics: [{name: x, rate: 1}]", n -> null);
    assertThat(good.orThrow().kafka().orElseThrow().embeddedDiskSize()).isEqualTo(16_000_000);
    assertThat(good.orThrow().kafka().orElseThrow().bootstrapServers()).isNull();
    LoadResult bad =
        WorkloadLoader.parse(
            "t.yml",
            """
            kafka: {bootstrap_servers: "h:9092", embedded_disk_size: 16MB}
            topics: [{name: x, rate: 1}]
            """,
            n -> null);
    assertThat(bad.problems())
        .extracting(Problem::toString)
        .containsExactly(
            "t.yml:1:58 kafka.embedded_disk_size: a disk size is for the embedded brokers; the"
                + " disks of the cluster at bootstrap_servers are its own");
    for (String size : List.of("lots", "512kB")) {
      LoadResult wrong =
          WorkloadLoader.parse(
              "t.yml",
              "kafka: {embedded_disk_size: " + size + "}\ntopics: [{name: x, rate: 1}]",
              n -> null);
      assertThat(wrong.problems())
          .extracting(Problem::toString)
          .containsExactly(
              size.equals("lots")
                  ? "t.yml:1:29 kafka.embedded_disk_size: not a size (16MB, 64MiB, 1GB): lots"
                  : "t.yml:1:29 kafka.embedded_disk_size: an embedded broker's disk is at least"
                      + " 1MiB, not 512kB");
    }
  }

  @Test
  void producersAreTheTopicsWritersCountedAndBounded() {
    LoadResult good =
        WorkloadLoader.parse(
            "t.yml", "topics: [{name: x, rate: 1, producers: 10}, {name: y, rate: 1}]", n -> null);
    assertThat(good.orThrow().topics().get(0).producers()).isEqualTo(10);
    assertThat(good.orThrow().topics().get(1).producers()).as("the run's one producer").isZero();
    LoadResult bad =
        WorkloadLoader.parse(
            "t.yml",
            """
            topics:
              - {name: x, rate: 1, producers: 0}
              - {name: y, rate: 1, producers: 257}
            """,
            n -> null);
    assertThat(bad.problems())
        .extracting(Problem::toString)
        .containsExactly(
            "t.yml:2:35 topics[0].producers: producers must be in [1, 256]: each is a Kafka"
                + " producer of its own",
            "t.yml:3:35 topics[1].producers: producers must be in [1, 256]: each is a Kafka"
                + " producer of its own");
  }

  @Test
  void aRatePerProducerIsEachWritersAndTheTopicsIsNTimesIt() {
    // the seed's "8M-10": ten streams of 800k messages a second each
    LoadResult good =
        WorkloadLoader.parse(
            "t.yml",
            "topics: [{name: x, producers: 10, rate_per_producer: 800000, duration: 10s}]",
            n -> null);
    assertThat(good.orThrow().topics().get(0).rate()).isEqualTo(8_000_000.0);
    LoadResult bad =
        WorkloadLoader.parse(
            "t.yml",
            """
            topics:
              - {name: x, rate_per_producer: 5}
              - {name: y, producers: 2, rate: 1, rate_per_producer: 5}
              - {name: z, producers: 2, rate_per_producer: 0}
            """,
            n -> null);
    assertThat(bad.problems())
        .extracting(Problem::toString)
        .containsExactly(
            "t.yml:2:34 topics[0].rate_per_producer: rate_per_producer needs producers: N, the"
                + " writers that each send it",
            "t.yml:3:57 topics[1].rate_per_producer: give rate (the topic's) or"
                + " rate_per_producer (each writer's), not both",
            "t.yml:4:48 topics[2].rate_per_producer: rate_per_producer must be > 0 messages per"
                + " second");
  }

  @Test
  void aSinkNamesItsTableAndNeedsConsumers() {
    LoadResult good =
        WorkloadLoader.parse(
            "t.yml",
            "topics: [{name: x, rate: 1, consumers: 2, sink: {table: x_rows}},"
                + " {name: y, rate: 1, sink: {topic: y.copies}}]",
            n -> null);
    assertThat(good.orThrow().topics().get(0).sinkTable()).isEqualTo("x_rows");
    assertThat(good.orThrow().topics().get(1).sinkTopic()).isEqualTo("y.copies");
    LoadResult bad =
        WorkloadLoader.parse(
            "t.yml",
            """
            topics:
              - {name: x, rate: 1, consumers: 0, sink: {table: rows}}
              - {name: y, rate: 1, sink: {table: "Rows; drop"}}
              - {name: z, rate: 1, sink: {tabel: rows}}
            """,
            n -> null);
    assertThat(bad.problems())
        .extracting(Problem::toString)
        .containsExactly(
            "t.yml:2:44 topics[0].sink: a sink is written by the topic's consumers: give consumers:"
                + " 1 or more",
            "t.yml:3:38 topics[1].sink.table: a table name of lower-case letters, digits and '_' (at"
                + " most 51), got \"Rows; drop\"",
            "t.yml:4:30 topics[2].sink: give table (a PostgreSQL table) or topic (a Kafka topic),"
                + " one of them",
            "t.yml:4:31 topics[2].sink.tabel: unknown key 'tabel'; did you mean 'table'?");
  }

  @Test
  void aFileWithOnlyTopicsHasSomethingToDo() {
    assertThat(
            WorkloadLoader.parse("t.yml", "topics: [{name: x, rate: 1}]", name -> null).isValid())
        .isTrue();
  }
}
