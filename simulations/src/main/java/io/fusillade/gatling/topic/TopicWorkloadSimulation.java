package io.fusillade.gatling.topic;

import static io.fusillade.gatling.topic.TopicDsl.kafka;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.incrementUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.FusilladeException;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.topic.TopicSpec;
import io.fusillade.workload.KafkaConnection;
import io.fusillade.workload.TopicWorkload;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadLoader;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the {@code topics:} section of a workload file without code: {@code
 * -Dworkload=path/to/file.yml}. Each topic gets its writers (a constant {@code rate}, or {@code
 * steps} judged like {@code TopicThroughputSimulation}) and its consumer group; the cluster is the
 * file's {@code kafka.bootstrap_servers}, {@code -Dkafka.bootstrap}, or an embedded Kafka (three
 * brokers if a topic's replication is above 1). {@code -Dseed} overrides the file's seed.
 */
public class TopicWorkloadSimulation extends Simulation {
  /** The request name of a topic's writes: {@code write <topic>}. */
  public static String requestName(String topic) {
    return "write " + topic;
  }

  {
    String file = SimulationProperties.string("workload", null);
    if (file == null) {
      throw new FusilladeException("TopicWorkloadSimulation needs -Dworkload=path/to/file.yml");
    }
    Workload workload = WorkloadLoader.load(Path.of(file)).orThrow();
    if (workload.topics().isEmpty()) {
      throw new FusilladeException(file + ": the workload has no topics section");
    }
    long seed =
        SimulationProperties.longValue("seed", workload.seed().orElse(Workload.DEFAULT_SEED));
    String fileBootstrap = workload.kafka().map(KafkaConnection::bootstrapServers).orElse(null);
    Map<String, String> common = workload.kafka().map(KafkaConnection::properties).orElse(Map.of());
    int replication =
        workload.topics().stream().mapToInt(TopicWorkload::replication).max().orElse(1);
    KafkaTarget target =
        fileBootstrap != null && System.getProperty("kafka.bootstrap") == null
            ? KafkaTarget.external(fileBootstrap)
            : KafkaTarget.fromProperties(replication);
    FusilladeRun.closeAtEnd(target); // before the protocols' components: closes after them

    Map<String, Object> parameters = new LinkedHashMap<>();
    parameters.put("workload", workload.name());
    parameters.put("file", file);
    parameters.put("seed", seed);
    parameters.put("target", target.kind());
    FusilladeRun.parameters(parameters);

    List<PopulationBuilder> populations = new ArrayList<>();
    for (TopicWorkload t : workload.topics()) {
      TopicProtocolBuilder protocol = kafka.bootstrapServers(target.bootstrapServers()).seed(seed);
      for (Map.Entry<String, String> e : common.entrySet()) {
        protocol = protocol.property(e.getKey(), e.getValue());
      }
      for (Map.Entry<String, String> e : t.producer().entrySet()) {
        protocol = protocol.producer(e.getKey(), e.getValue());
      }
      for (Map.Entry<String, String> e : t.consumer().entrySet()) {
        protocol = protocol.consumer(e.getKey(), e.getValue());
      }
      TopicSpec spec =
          TopicSpec.of(t.name())
              .withPartitions(t.partitions())
              .withReplicationFactor(t.replication())
              .withCreate(t.create())
              .withConsumers(t.consumers())
              .withGroup(t.group());
      for (Map.Entry<String, String> e : t.configs().entrySet()) {
        spec = spec.withConfig(e.getKey(), e.getValue());
      }
      protocol = protocol.topic(spec);
      TopicSendBuilder send =
          kafka(requestName(t.name())).send(t.name()).valueSize(t.messageSize());
      if (t.key().isPresent()) {
        send = send.keys(t.key().get());
      }
      PopulationBuilder population;
      var writers = scenario("writers " + t.name()).exec(send);
      if (t.steps() != null) {
        TopicWorkload.Steps s = t.steps();
        protocol =
            protocol.onEnd(
                TopicSteps.judge(
                    t.name(),
                    requestName(t.name()),
                    TopicSteps.rising(s.start(), s.increment(), s.count(), s.duration())));
        population =
            writers.injectOpen(
                incrementUsersPerSec(s.increment())
                    .times(s.count())
                    .eachLevelLasting(s.duration())
                    .startingFrom(s.start()));
      } else {
        population = writers.injectOpen(constantUsersPerSec(t.rate()).during(t.duration()));
      }
      populations.add(population.protocols(protocol));
    }
    setUp(populations);
  }

  /** The longest a topic of this workload writes, for launchers that need a time-out. */
  public static Duration longest(Workload workload) {
    Duration longest = Duration.ZERO;
    for (TopicWorkload t : workload.topics()) {
      Duration d =
          t.steps() != null ? t.steps().duration().multipliedBy(t.steps().count()) : t.duration();
      longest = d.compareTo(longest) > 0 ? d : longest;
    }
    return longest;
  }
}
