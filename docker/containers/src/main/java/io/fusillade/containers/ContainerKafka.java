package io.fusillade.containers;

import io.fusillade.local.ChildJvm;
import io.fusillade.local.FreePorts;
import io.fusillade.local.KafkaServer;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

/**
 * A Kafka cluster in KRaft mode in containers, each broker also a controller, with the durability
 * settings of the queue team's rules when it has three brokers or more: replication factor 3,
 * {@code min.insync.replicas} 2 (producers then ask {@code acks=all}).
 *
 * <p>A client outside Docker reaches each broker at the port the engine publishes, so that port is
 * chosen before the broker starts and advertised by it; brokers talk to each other on a private
 * network. All brokers start together, since a KRaft quorum forms only with its voters up. Brokers
 * are numbered from 1 for faults: {@link #pause}, {@link #resume}, {@link #kill} and {@link
 * #restart} ({@code docker pause}, {@code unpause}, {@code kill}, {@code start}).
 */
public final class ContainerKafka implements KafkaServer {
  /** The Apache Kafka project's image, pulled from Docker Hub. */
  public static final String DEFAULT_IMAGE = "apache/kafka:4.3.1";

  /**
   * The image {@code docker/image/build-local.sh} builds from Kafka's Maven artifacts, configured
   * as {@value #DEFAULT_IMAGE} is: the default when the engine has it.
   */
  public static final String LOCAL_IMAGE = "fusillade/kafka:4.3.1";

  private static final int CLIENT_PORT = 9092;
  private static final Duration STARTUP = Duration.ofMinutes(2);
  private static final String STARTED = "Kafka Server started";

  private final ContainerNodes nodes;
  private final String bootstrapServers;

  private ContainerKafka(
      Network network, List<GenericContainer<?>> brokers, String bootstrapServers) {
    this.nodes = new ContainerNodes("Kafka broker", brokers, network);
    this.bootstrapServers = bootstrapServers;
  }

  /**
   * One broker, from {@value #LOCAL_IMAGE} when the engine has it, else {@value #DEFAULT_IMAGE}.
   */
  public static ContainerKafka start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String bootstrapServers() {
    return bootstrapServers;
  }

  @Override
  public int brokers() {
    return nodes.size();
  }

  /** The image the brokers run. */
  public String image() {
    return nodes.node(1).getDockerImageName();
  }

  /** Freezes broker {@code broker} (from 1), {@code docker pause}: its connections stay open. */
  public void pause(int broker) {
    nodes.pause(broker);
  }

  /** Lets a paused broker run again. */
  public void resume(int broker) {
    nodes.resume(broker);
  }

  /** Kills broker {@code broker} as a crash would ({@code docker kill}). */
  public void kill(int broker) {
    nodes.kill(broker);
  }

  /**
   * Starts a killed broker again with its data, on its port, and returns once it runs (it then
   * catches up with the partitions it follows).
   */
  public void restart(int broker) {
    nodes.restart(broker, ContainerNodes.logsOnceMore(nodes.node(broker), STARTED));
  }

  /** Removes every broker, a paused one too, and their network. */
  @Override
  public void close() {
    nodes.close();
  }

  @Override
  public String toString() {
    return "Kafka in containers (" + nodes.size() + " brokers) at " + bootstrapServers;
  }

  /** How to start it: the image and the number of brokers. */
  public static final class Builder {
    private String image;
    private int brokers = 1;
    private final Map<String, String> settings = new LinkedHashMap<>();

    private Builder() {}

    /**
     * An image configured like {@code apache/kafka} (its {@code KAFKA_*} environment); by default
     * {@value ContainerKafka#LOCAL_IMAGE} when the engine has it, else {@value
     * ContainerKafka#DEFAULT_IMAGE}.
     */
    public Builder image(String image) {
      this.image = image;
      return this;
    }

    /**
     * A broker setting of every broker ({@code server.properties}), e.g. {@code
     * broker.session.timeout.ms}: passed as the image's {@code KAFKA_*} variable, after (so over)
     * the cluster's own.
     */
    public Builder setting(String name, String value) {
      settings.put(
          "KAFKA_"
              + name.toUpperCase(Locale.ROOT)
                  .replace("_", "__")
                  .replace("-", "___")
                  .replace(".", "_"),
          value);
      return this;
    }

    /** How many brokers (1 by default; 3 for replication factor 3). */
    public Builder brokers(int brokers) {
      if (brokers < 1) {
        throw new IllegalArgumentException("a Kafka cluster needs at least one broker: " + brokers);
      }
      this.brokers = brokers;
      return this;
    }

    public ContainerKafka start() {
      DockerImageName name =
          DockerImageName.parse(image != null ? image : Docker.image(LOCAL_IMAGE, DEFAULT_IMAGE));
      Network network = Network.newNetwork();
      String host = Docker.host();
      String clusterId = clusterId();
      String voters =
          IntStream.rangeClosed(1, brokers)
              .mapToObj(id -> id + "@kafka" + id + ":9093")
              .collect(Collectors.joining(","));
      int replication = Math.min(brokers, 3);
      String minInSync = String.valueOf(brokers >= 3 ? 2 : 1);
      List<GenericContainer<?>> containers = new ArrayList<>();
      List<String> endpoints = new ArrayList<>();
      List<Integer> hostPorts = FreePorts.of(brokers);
      for (int id = 1; id <= brokers; id++) {
        int hostPort = hostPorts.get(id - 1);
        endpoints.add(host + ":" + hostPort);
        GenericContainer<?> broker =
            new GenericContainer<>(name)
                .withNetwork(network)
                .withNetworkAliases("kafka" + id)
                .withEnv("CLUSTER_ID", clusterId)
                .withEnv("KAFKA_NODE_ID", String.valueOf(id))
                .withEnv("KAFKA_PROCESS_ROLES", "broker,controller")
                .withEnv("KAFKA_CONTROLLER_QUORUM_VOTERS", voters)
                .withEnv("KAFKA_LISTENERS", "CLIENT://:9092,CONTROLLER://:9093,BROKER://:9094")
                .withEnv(
                    "KAFKA_ADVERTISED_LISTENERS",
                    "CLIENT://" + host + ":" + hostPort + ",BROKER://kafka" + id + ":9094")
                .withEnv(
                    "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP",
                    "CLIENT:PLAINTEXT,CONTROLLER:PLAINTEXT,BROKER:PLAINTEXT")
                .withEnv("KAFKA_CONTROLLER_LISTENER_NAMES", "CONTROLLER")
                .withEnv("KAFKA_INTER_BROKER_LISTENER_NAME", "BROKER")
                .withEnv("KAFKA_DEFAULT_REPLICATION_FACTOR", String.valueOf(replication))
                .withEnv("KAFKA_MIN_INSYNC_REPLICAS", minInSync)
                .withEnv("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", String.valueOf(replication))
                .withEnv(
                    "KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", String.valueOf(replication))
                .withEnv("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", minInSync)
                .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0")
                // As the embedded broker: 50 partitions of consumer offsets take seconds to create
                .withEnv("KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS", "5")
                // FUSILLADE_CHILD_JVM_OPTS, as for the embedded brokers' JVMs
                .withEnv("KAFKA_OPTS", String.join(" ", ChildJvm.extraOptions()))
                .withEnv(settings)
                .withExposedPorts(CLIENT_PORT)
                .waitingFor(
                    Wait.forLogMessage(".*" + STARTED + ".*", 1).withStartupTimeout(STARTUP));
        // The advertised port must be the published one, so it is fixed before the start.
        broker.setPortBindings(List.of(Docker.publishAddress() + hostPort + ":" + CLIENT_PORT));
        containers.add(broker);
      }
      try {
        Startables.deepStart(containers).join();
      } catch (RuntimeException e) {
        throw ContainerNodes.abandon(e, containers, network);
      }
      return new ContainerKafka(network, List.copyOf(containers), String.join(",", endpoints));
    }

    /**
     * A KRaft cluster id: 16 random bytes in URL-safe base64 without padding, never starting with
     * "-". One id in 64 would otherwise start with it, and {@code kafka-storage format --cluster-id
     * -abc...} reads it as an option and refuses to start: the broker exited with "expected one
     * argument" in CI (Kafka's own {@code Uuid.randomUuid()} redraws such ids for the same reason).
     */
    static String clusterId() {
      while (true) {
        UUID uuid = UUID.randomUUID();
        ByteBuffer bytes = ByteBuffer.allocate(16);
        bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
        if (!id.startsWith("-")) {
          return id;
        }
      }
    }
  }
}
