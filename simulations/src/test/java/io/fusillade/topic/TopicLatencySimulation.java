package io.fusillade.topic;

import static io.fusillade.gatling.kafka.KafkaDsl.kafka;
import static io.fusillade.gatling.kafka.KafkaDsl.topic;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.gatling.kafka.KafkaComponents;
import io.fusillade.gatling.kafka.KafkaProtocolBuilder;
import io.fusillade.record.RunRecorder;
import io.fusillade.scenarios.topic.KafkaTarget;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The "minimum time" experiment of the YDB Topics report: end-to-end latency (send to receipt) at a
 * constant arrival rate, first without load, then under load at a fraction of a measured maximum.
 * Each phase writes to its own topic, so its end-to-end latency is its own metric ({@code e2e
 * latency-idle}, {@code e2e latency-load}); {@code run.json} health {@code topic.T.e2e} gives
 * p50/p99/p99.9 in milliseconds.
 *
 * <p>Settings: {@code idleRate} (messages/s, default 10), {@code maxRate} (the maximum measured by
 * {@link TopicThroughputSimulation}; 0 skips the loaded phase; default 3000), {@code fraction}
 * (0.33), {@code duration} (per phase, 30s), {@code messageSize} (1024), {@code partitions} (4),
 * {@code replication} (1), {@code consumers} (4), {@code lingerMs} (0: latency first), {@code
 * fusillade.urls}.
 */
public class TopicLatencySimulation extends Simulation {
  private final KafkaTarget target;

  {
    double idleRate = Double.parseDouble(SimulationProperties.string("idleRate", "10"));
    double maxRate = Double.parseDouble(SimulationProperties.string("maxRate", "3000"));
    double fraction = Double.parseDouble(SimulationProperties.string("fraction", "0.33"));
    Duration duration = SimulationProperties.duration("duration", Duration.ofSeconds(30));
    int size = SimulationProperties.integer("messageSize", 1024);
    int partitions = SimulationProperties.integer("partitions", 4);
    int replication = SimulationProperties.integer("replication", 1);
    int consumers = SimulationProperties.integer("consumers", 4);
    String linger = SimulationProperties.string("lingerMs", "0");
    double loadRate = maxRate * fraction;

    target = KafkaTarget.fromProperties(replication);
    // Registered before the protocol's components, so it closes after them (last in, first out):
    // consumers drain while the brokers still run.
    FusilladeRun.closeAtEnd(target);
    Map<String, Object> parameters = new LinkedHashMap<>();
    parameters.put("target", target.kind());
    parameters.put("messageSize", size);
    parameters.put("partitions", partitions);
    parameters.put("replication", replication);
    parameters.put("lingerMs", linger);
    FusilladeRun.parameters(parameters);

    List<String> topics = new ArrayList<>(List.of("latency-idle"));
    if (loadRate > 0) {
      topics.add("latency-load");
    }
    KafkaProtocolBuilder protocol =
        kafka.bootstrapServers(target.bootstrapServers()).producer("linger.ms", linger);
    for (String t : topics) {
      protocol =
          protocol.topic(
              topic(t).partitions(partitions).replicationFactor(replication).consumers(consumers));
    }
    FusilladeRun.onEnd(
        KafkaComponents.class,
        (components, recorder) -> recorder.onFinish(() -> percentiles(recorder, topics)));

    PopulationBuilder idle =
        scenario("idle")
            .exec(kafka("write idle").send("latency-idle").valueSize(size))
            .injectOpen(constantUsersPerSec(idleRate).during(duration));
    if (loadRate > 0) {
      idle =
          idle.andThen(
              scenario("load")
                  .exec(kafka("write load").send("latency-load").valueSize(size))
                  .injectOpen(constantUsersPerSec(loadRate).during(duration)));
    }
    setUp(idle).protocols(protocol);
  }

  private static void percentiles(RunRecorder recorder, List<String> topics) {
    for (String t : topics) {
      Histogram h = recorder.metricTotal("e2e " + t);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("count", h.getTotalCount());
      m.put("p50Ms", h.getValueAtPercentile(50) / 1000.0);
      m.put("p99Ms", h.getValueAtPercentile(99) / 1000.0);
      m.put("p999Ms", h.getValueAtPercentile(99.9) / 1000.0);
      recorder.health("topic." + t + ".e2e", m);
    }
  }
}
