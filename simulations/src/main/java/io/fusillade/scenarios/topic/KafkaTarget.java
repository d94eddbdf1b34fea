package io.fusillade.scenarios.topic;

import io.fusillade.FusilladeException;
import io.fusillade.fault.Fault;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.local.LocalKafka;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.record.SettingValues;
import io.fusillade.scenarios.LocalFaults;
import io.fusillade.topic.KafkaErrors;
import java.util.List;
import java.util.Optional;

/**
 * Where a topic simulation sends: external bootstrap servers when given ({@code
 * -Dfusillade.urls=host:9092}, the targets of {@link RunSettings}), otherwise an embedded Kafka
 * started for the run — one broker, or three when the replication factor asks for it — each broker
 * in its own JVM unless {@code -Dkafka.embedded.separateProcess=false}, each broker's log directory
 * on a disk of its own of the workload's {@code kafka.embedded_disk_size} or {@code
 * -Dkafka.embedded.diskSize=16MB} when given (the disk test: {@link
 * LocalKafka.Builder#diskSize(long)}; the property wins over the file).
 */
public final class KafkaTarget implements AutoCloseable {
  /** The system property of the embedded brokers' disk size ({@code 16MB}, {@code 64MiB}). */
  public static final String DISK_SIZE = "kafka.embedded.diskSize";

  private final String bootstrapServers;
  private final LocalKafka local;
  private final java.util.concurrent.ScheduledExecutorService diskWatch; // or null

  private KafkaTarget(String bootstrapServers, LocalKafka local) {
    this.bootstrapServers = bootstrapServers;
    this.local = local;
    this.diskWatch = local != null && !local.disks().isEmpty() ? watchDisks(local) : null;
  }

  /**
   * Looks at the brokers' logs every 250 ms: once one says its disk filled, the writes that then
   * fail by a timeout or a refused connection (the broker stopped) are counted as that server
   * failure, in its words ({@link KafkaErrors#serverFailed}).
   */
  private static java.util.concurrent.ScheduledExecutorService watchDisks(LocalKafka kafka) {
    KafkaErrors.serverFailed(null);
    java.util.concurrent.ScheduledExecutorService watch =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "kafka-disk-watch");
              t.setDaemon(true);
              return t;
            });
    watch.scheduleWithFixedDelay(
        () -> kafka.diskFailure().ifPresent(KafkaErrors::serverFailed),
        250,
        250,
        java.util.concurrent.TimeUnit.MILLISECONDS);
    return watch;
  }

  /**
   * The size of {@value #DISK_SIZE}, in bytes, or {@code fromFile} when not given.
   *
   * @param fromFile the workload's {@code kafka.embedded_disk_size}, or 0
   * @throws FusilladeException naming the property when it is not a size
   */
  static long diskSize(long fromFile) {
    String text = SimulationProperties.string(DISK_SIZE, "").strip();
    if (text.isEmpty()) {
      return fromFile;
    }
    try {
      return SettingValues.parseSize(text);
    } catch (IllegalArgumentException e) {
      throw new FusilladeException("-D" + DISK_SIZE + "=" + text + ": " + e.getMessage());
    }
  }

  /** {@link #fromProperties(int, long)} without a disk size from a workload. */
  public static KafkaTarget fromProperties(int replicationFactor) {
    return fromProperties(replicationFactor, 0);
  }

  /**
   * Reads {@code fusillade.target} ({@code embedded} or {@code external}) and {@code
   * fusillade.urls}, and starts an embedded cluster if needed.
   *
   * @param replicationFactor the replication the topics need: above 1, an embedded cluster has
   *     three brokers
   * @param diskSize the workload's {@code kafka.embedded_disk_size} in bytes, or 0
   */
  public static KafkaTarget fromProperties(int replicationFactor, long diskSize) {
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
        long disk = diskSize(diskSize);
        if (disk > 0) {
          if (!separate) {
            throw new FusilladeException(
                "a disk size (-D"
                    + DISK_SIZE
                    + " or kafka.embedded_disk_size) needs the brokers in JVMs of their own: a broker whose disk fills halts"
                    + " its JVM (drop -Dkafka.embedded.separateProcess=false)");
          }
          try {
            builder.diskSize(disk);
          } catch (IllegalArgumentException e) {
            throw new FusilladeException("-D" + DISK_SIZE + ": " + e.getMessage());
          }
        }
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
    if (diskWatch != null) {
      diskWatch.shutdownNow();
      KafkaErrors.serverFailed(null); // a later run in this JVM starts with its brokers' own
    }
    if (local != null) {
      local.close();
    }
  }

  @Override
  public String toString() {
    return kind() + " Kafka at " + bootstrapServers;
  }
}
