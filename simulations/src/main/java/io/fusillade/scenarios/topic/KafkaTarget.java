package io.fusillade.scenarios.topic;

import io.fusillade.FusilladeException;
import io.fusillade.fault.Fault;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.local.LocalKafka;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.scenarios.LocalFaults;
import java.util.List;
import java.util.Optional;

/**
 * Where a topic simulation sends: external bootstrap servers when given ({@code
 * -Dfusillade.urls=host:9092}, the targets of {@link RunSettings}), otherwise an embedded Kafka
 * started for the run — one broker, or three when the replication factor asks for it — each broker
 * in its own JVM unless {@code -Dkafka.embedded.separateProcess=false}.
 */
public final class KafkaTarget implements AutoCloseable {
  private final String bootstrapServers;
  private final LocalKafka local;

  private KafkaTarget(String bootstrapServers, LocalKafka local) {
    this.bootstrapServers = bootstrapServers;
    this.local = local;
  }

  /**
   * Reads {@code fusillade.target} ({@code embedded} or {@code external}) and {@code
   * fusillade.urls}, and starts an embedded cluster if needed.
   *
   * @param replicationFactor the replication the topics need: above 1, an embedded cluster has
   *     three brokers
   */
  public static KafkaTarget fromProperties(int replicationFactor) {
    List<String> urls = RunPlan.current().settings().urls();
    String bootstrap = urls.isEmpty() ? null : String.join(",", urls);
    String target =
        SimulationProperties.string(
            "fusillade.target", bootstrap != null ? "external" : "embedded");
    switch (target) {
      case "external" -> {
        if (bootstrap == null) {
          throw new FusilladeException(
              "-Dfusillade.target=external needs the cluster: -D"
                  + RunSettings.URLS
                  + "=host:9092");
        }
        return new KafkaTarget(bootstrap, null);
      }
      case "embedded" -> {
        if (replicationFactor > 3) {
          throw new FusilladeException(
              "the embedded Kafka has at most 3 brokers: replication factor "
                  + replicationFactor
                  + " needs -D"
                  + RunSettings.URLS);
        }
        boolean separate =
            Boolean.parseBoolean(
                SimulationProperties.string("kafka.embedded.separateProcess", "true"));
        LocalKafka.Builder builder =
            LocalKafka.builder().brokers(replicationFactor > 1 ? 3 : 1).separateProcess(separate);
        // A broker whose answers a fault delays is reached through a proxy, from the start.
        FusilladeRun.faultedNodes(LocalFaults.BROKER, Fault.Action.DELAY)
            .forEach(n -> builder.delayable(n - 1));
        LocalKafka kafka = builder.start();
        FusilladeRun.faultTarget(LocalFaults.BROKER, LocalFaults.kafka(kafka));
        return new KafkaTarget(kafka.bootstrapServers(), kafka);
      }
      default ->
          throw new FusilladeException(
              "system property fusillade.target="
                  + target
                  + " is not a Kafka target (embedded or external)");
    }
  }

  /** An external cluster. */
  public static KafkaTarget external(String bootstrapServers) {
    return new KafkaTarget(bootstrapServers, null);
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** {@code embedded} or {@code external}, for run.json. */
  public String kind() {
    return local != null ? "embedded" : "external";
  }

  /** The embedded cluster, if this target started one. */
  public Optional<LocalKafka> local() {
    return Optional.ofNullable(local);
  }

  /** Stops the embedded cluster, if any. */
  @Override
  public void close() {
    if (local != null) {
      local.close();
    }
  }

  @Override
  public String toString() {
    return kind() + " Kafka at " + bootstrapServers;
  }
}
