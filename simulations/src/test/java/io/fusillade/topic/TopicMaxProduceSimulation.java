package io.fusillade.topic;

import static io.fusillade.gatling.kafka.KafkaDsl.kafka;
import static io.fusillade.gatling.kafka.KafkaDsl.topic;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.gatling.kafka.KafkaComponents;
import io.fusillade.scenarios.topic.KafkaTarget;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.Map;

/**
 * Fusillade's maximum produce rate, for {@code simulations/bench/topic-produce.sh}: {@code
 * inflight} users each send, wait for the acknowledgement and send again for {@code duration}, so
 * at most {@code inflight} messages are unacknowledged (Kafka's ProducerPerformance is bounded by
 * its buffer instead). No consumers. Prints {@code fusillade.records.per.second=...} at the end.
 *
 * <p>Settings: {@code fusillade.urls}, {@code topic} (perf-fusillade), {@code partitions} (1),
 * {@code messageSize} (1024), {@code lingerMs} (5), {@code batchSize} (16384), {@code inflight}
 * (2000), {@code duration} (60s).
 */
public class TopicMaxProduceSimulation extends Simulation {
  {
    String topicName = SimulationProperties.string("topic", "perf-fusillade");
    int partitions = SimulationProperties.integer("partitions", 1);
    int size = SimulationProperties.integer("messageSize", 1024);
    String linger = SimulationProperties.string("lingerMs", "5");
    String batch = SimulationProperties.string("batchSize", "16384");
    int inflight = SimulationProperties.integer("inflight", 2000);
    Duration duration = SimulationProperties.duration("duration", Duration.ofSeconds(60));
    KafkaTarget target = KafkaTarget.fromProperties(1);
    FusilladeRun.closeAtEnd(target);
    FusilladeRun.parameters(
        Map.of("inflight", inflight, "messageSize", size, "lingerMs", linger, "batchSize", batch));
    var protocol =
        kafka
            .bootstrapServers(target.bootstrapServers())
            .producer("linger.ms", linger)
            .producer("batch.size", batch)
            .topic(topic(topicName).partitions(partitions));
    FusilladeRun.onEnd(
        KafkaComponents.class,
        (components, recorder) -> {
          TopicClient client = components.client();
          double seconds = client.secondsSinceOpen() - client.firstSendSeconds();
          long acked = client.delivery(topicName).acknowledged();
          System.out.printf(
              "fusillade.records.per.second=%.1f (%d records in %.1f s)%n",
              acked / seconds, acked, seconds);
        });
    var writers =
        scenario("writers").during(duration).on(kafka("write").send(topicName).valueSize(size));
    setUp(writers.injectOpen(atOnceUsers(inflight))).protocols(protocol);
  }
}
