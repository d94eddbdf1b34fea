package io.fusillade.topic;

import static io.fusillade.gatling.kafka.KafkaDsl.kafka;
import static io.fusillade.gatling.kafka.KafkaDsl.offset;
import static io.fusillade.gatling.kafka.KafkaDsl.partition;
import static io.fusillade.gatling.kafka.KafkaDsl.topic;
import static io.gatling.javaapi.core.CoreDsl.incrementUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.gatling.kafka.KafkaComponents;
import io.fusillade.gatling.kafka.KafkaProtocolBuilder;
import io.fusillade.gatling.kafka.TopicSteps;
import io.fusillade.scenarios.topic.KafkaTarget;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The "maximum speed" experiment of the YDB Topics report: the highest write rate the cluster
 * sustains while readers keep up. Producers send at a rate that rises in steps; consumers read all
 * along. Per step, {@code run.json} holds write and read MB/s, the lag trend, lost messages, failed
 * sends, produce and end-to-end percentiles ({@code health."topic.T.steps"}); the verdict ({@code
 * health."topic.T.verdict"}) is the highest step with a flat lag, nothing lost and no failed send.
 *
 * <p>Settings (system properties): {@code startRate} (messages/s, default 1000), {@code rateStep}
 * (1000), {@code steps} (3), {@code stepDuration} (20s), {@code messageSize} (1024 bytes), {@code
 * partitions} (4), {@code replication} (1; 3 starts three embedded brokers), {@code consumers} (4),
 * {@code topic} (throughput), {@code lingerMs} (5), {@code batchSize} (16384), {@code
 * fusillade.urls} (an external cluster; default: embedded), {@code seed} (1).
 */
public class TopicThroughputSimulation extends Simulation {
  static final String REQUEST = "write";

  private final KafkaTarget target;

  {
    int startRate = SimulationProperties.integer("startRate", 1000);
    int rateStep = SimulationProperties.integer("rateStep", 1000);
    int steps = SimulationProperties.integer("steps", 3);
    Duration stepDuration = SimulationProperties.duration("stepDuration", Duration.ofSeconds(20));
    int size = SimulationProperties.integer("messageSize", 1024);
    int partitions = SimulationProperties.integer("partitions", 4);
    int replication = SimulationProperties.integer("replication", 1);
    int consumers = SimulationProperties.integer("consumers", 4);
    String topicName = SimulationProperties.string("topic", "throughput");
    String linger = SimulationProperties.string("lingerMs", "5");
    String batch = SimulationProperties.string("batchSize", "16384");
    long seed = SimulationProperties.longValue("seed", 1);

    target = KafkaTarget.fromProperties(replication);
    // Registered before the protocol's components, so it closes after them (last in, first out):
    // consumers drain while the brokers still run.
    FusilladeRun.closeAtEnd(target);
    Map<String, Object> parameters = new LinkedHashMap<>();
    parameters.put("target", target.kind());
    parameters.put("messageSize", size);
    parameters.put("partitions", partitions);
    parameters.put("replication", replication);
    parameters.put("consumers", consumers);
    parameters.put("lingerMs", linger);
    parameters.put("batchSize", batch);
    parameters.put("seed", seed);
    FusilladeRun.parameters(parameters);

    List<TopicSteps.Step> stepList = TopicSteps.rising(startRate, rateStep, steps, stepDuration);
    KafkaProtocolBuilder protocol =
        kafka
            .bootstrapServers(target.bootstrapServers())
            .producer("linger.ms", linger)
            .producer("batch.size", batch)
            .topic(
                topic(topicName)
                    .partitions(partitions)
                    .replicationFactor(replication)
                    .consumers(consumers))
            .seed(seed);
    FusilladeRun.onEnd(KafkaComponents.class, TopicSteps.judge(topicName, REQUEST, stepList));
    ScenarioBuilder writers =
        scenario("writers")
            .exec(
                kafka(REQUEST)
                    .send(topicName)
                    .valueSize(size)
                    // where the broker put each message: a send it did not place is KO
                    .check(partition().gte(0).lt(partitions), offset().gte(0)));
    setUp(
            writers.injectOpen(
                incrementUsersPerSec(rateStep)
                    .times(steps)
                    .eachLevelLasting(stepDuration)
                    .startingFrom(startRate)))
        .protocols(protocol);
  }
}
