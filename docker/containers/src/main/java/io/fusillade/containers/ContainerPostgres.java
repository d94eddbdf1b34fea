package io.fusillade.containers;

import io.fusillade.local.FreePorts;
import io.fusillade.local.PostgresServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

/**
 * PostgreSQL in containers: a primary and, if asked, streaming replicas that answer reads. Like the
 * embedded server it trusts its connections (user {@value #USER}, no password), so no password is
 * ever in a URL, a property or a report.
 *
 * <p>The replicas are cloned from the primary with {@code pg_basebackup -R} on a private Docker
 * network and follow it by streaming replication; {@link #replicaJdbcUrls()} lists them. Node 1 is
 * the primary, nodes 2 and on its replicas, for faults: {@link #pause}, {@link #resume}, {@link
 * #kill} and {@link #restart} ({@code docker pause}, {@code unpause}, {@code kill}, {@code start}).
 */
public final class ContainerPostgres implements PostgresServer {
  /** The project's image: the version of the embedded server, pulled from Docker Hub. */
  public static final String DEFAULT_IMAGE = "postgres:18.6";

  /**
   * The image {@code docker/image/build-local.sh} builds from Debian's PostgreSQL 15 packages, with
   * the same environment contract: the default when the engine has it.
   */
  public static final String LOCAL_IMAGE = "fusillade/postgres:15";

  public static final String USER = "postgres";
  public static final String DATABASE = "postgres";

  private static final int PORT = 5432;
  private static final Duration STARTUP = Duration.ofMinutes(2);

  private static final String READY = "database system is ready to accept connections";
  private static final String READY_READ_ONLY = "ready to accept read-only connections";

  private final ContainerNodes nodes;
  private final GenericContainer<?> primary;
  private final List<GenericContainer<?>> replicas;

  private ContainerPostgres(
      Network network, GenericContainer<?> primary, List<GenericContainer<?>> replicas) {
    List<GenericContainer<?>> all = new ArrayList<>();
    all.add(primary);
    all.addAll(replicas);
    this.nodes = new ContainerNodes("PostgreSQL node", all, network);
    this.primary = primary;
    this.replicas = replicas;
  }

  /**
   * A primary without replicas, from {@value #LOCAL_IMAGE} when the engine has it, else {@value
   * #DEFAULT_IMAGE}.
   */
  public static ContainerPostgres start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String jdbcUrl() {
    return url(primary);
  }

  @Override
  public String user() {
    return USER;
  }

  /** Empty: the containers trust their connections, like the embedded server. */
  @Override
  public String password() {
    return "";
  }

  @Override
  public List<String> replicaJdbcUrls() {
    return replicas.stream().map(ContainerPostgres::url).toList();
  }

  /** The image the nodes run. */
  public String image() {
    return primary.getDockerImageName();
  }

  /** Freezes node {@code node} (1: the primary, 2 and on: the replicas), {@code docker pause}. */
  public void pause(int node) {
    nodes.pause(node);
  }

  /** Lets a paused node run again. */
  public void resume(int node) {
    nodes.resume(node);
  }

  /** Kills node {@code node}'s server as a crash would ({@code docker kill}). */
  public void kill(int node) {
    nodes.kill(node);
  }

  /**
   * Starts a killed node again with its data, on its port, and returns once it accepts connections:
   * a replica then streams what the primary wrote meanwhile.
   */
  public void restart(int node) {
    GenericContainer<?> container = nodes.node(node);
    nodes.restart(
        node, ContainerNodes.logsOnceMore(container, node == 1 ? READY : READY_READ_ONLY));
  }

  /** Removes every node, a paused one too, and their network. */
  @Override
  public void close() {
    nodes.close();
  }

  @Override
  public String toString() {
    return "PostgreSQL in containers at " + jdbcUrl() + " with " + replicas.size() + " replica(s)";
  }

  private static String url(GenericContainer<?> container) {
    return "jdbc:postgresql://"
        + container.getHost()
        + ":"
        + container.getMappedPort(PORT)
        + "/"
        + DATABASE;
  }

  /** How to start it: the image, the number of replicas, server settings. */
  public static final class Builder {
    private String image;
    private int replicas;
    private final Map<String, String> settings = new LinkedHashMap<>();

    private Builder() {}

    /**
     * The PostgreSQL image (an official {@code postgres} image or one built like it); by default
     * {@value ContainerPostgres#LOCAL_IMAGE} when the engine has it, else {@value
     * ContainerPostgres#DEFAULT_IMAGE}.
     */
    public Builder image(String image) {
      this.image = image;
      return this;
    }

    /** How many streaming replicas follow the primary (0 by default). */
    public Builder replicas(int replicas) {
      if (replicas < 0) {
        throw new IllegalArgumentException("replicas must be 0 or more: " + replicas);
      }
      this.replicas = replicas;
      return this;
    }

    /** A server setting of the primary ({@code -c name=value}), e.g. {@code shared_buffers}. */
    public Builder setting(String name, String value) {
      settings.put(name, value);
      return this;
    }

    /** Starts the primary, then its replicas side by side; waits until each accepts connections. */
    public ContainerPostgres start() {
      DockerImageName name =
          DockerImageName.parse(image != null ? image : Docker.image(LOCAL_IMAGE, DEFAULT_IMAGE));
      Network network = Network.newNetwork();
      Map<String, String> all = new LinkedHashMap<>();
      all.put("wal_level", "replica");
      all.put("max_wal_senders", String.valueOf(Math.max(10, replicas + 2)));
      all.put("hot_standby", "on");
      all.putAll(settings);
      String command =
          "postgres "
              + all.entrySet().stream()
                  .map(e -> "-c " + e.getKey() + "=" + e.getValue())
                  .collect(Collectors.joining(" "));
      List<Integer> ports = FreePorts.of(1 + replicas);
      GenericContainer<?> primary =
          new GenericContainer<>(name)
              .withNetwork(network)
              .withNetworkAliases("primary")
              .withEnv("POSTGRES_HOST_AUTH_METHOD", "trust")
              .withEnv("POSTGRES_USER", USER)
              .withEnv("POSTGRES_DB", DATABASE)
              // the image trusts "host all all all"; replication connections need their own line
              .withCopyToContainer(
                  Transferable.of(
                      "echo 'host replication all all trust' >> \"$PGDATA/pg_hba.conf\"\n", 0755),
                  "/docker-entrypoint-initdb.d/replication.sh")
              .withCommand(command)
              .withExposedPorts(PORT)
              // the image's entrypoint starts the server twice: once to initialise, then for good
              .waitingFor(
                  Wait.forLogMessage(".*" + READY + ".*\\s", 2).withStartupTimeout(STARTUP));
      // Fixed host ports: a node restarted after a kill is back at its URL.
      primary.setPortBindings(List.of(Docker.publishAddress() + ports.get(0) + ":" + PORT));
      List<GenericContainer<?>> started = new ArrayList<>();
      try {
        started.add(primary);
        primary.start();
        List<GenericContainer<?>> standbys = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
          GenericContainer<?> standby = replica(name, network, all);
          standby.setPortBindings(List.of(Docker.publishAddress() + ports.get(1 + i) + ":" + PORT));
          standbys.add(standby);
          started.add(standby);
        }
        Startables.deepStart(standbys).join();
        return new ContainerPostgres(network, primary, List.copyOf(standbys));
      } catch (RuntimeException e) {
        throw ContainerNodes.abandon(e, started, network);
      }
    }

    private static GenericContainer<?> replica(
        DockerImageName name, Network network, Map<String, String> settings) {
      // A hot standby refuses to start when max_connections, max_wal_senders and the like are
      // below the primary's, and -c settings are not in the base backup: give it the same ones.
      String options =
          settings.entrySet().stream()
              .map(e -> " -c '" + e.getKey() + "=" + e.getValue().replace("'", "") + "'")
              .collect(Collectors.joining());
      // The image's entrypoint runs any command but "postgres" as given, as root: clone the
      // primary (retrying while it finishes starting), then run the copy as a hot standby. A
      // replica restarted after a kill keeps its copy and streams what it missed.
      String script =
          String.join(
              "\n",
              "set -e",
              "dir=/var/lib/postgresql/replica",
              "[ -s $dir/PG_VERSION ] || until pg_basebackup -h primary -p "
                  + PORT
                  + " -U "
                  + USER
                  + " -D $dir -R -X stream;"
                  + " do rm -rf $dir; sleep 1; done",
              "chown -R postgres:postgres $dir",
              "chmod 700 $dir",
              "exec gosu postgres postgres -D $dir" + options);
      return new GenericContainer<>(name)
          .withNetwork(network)
          .withCommand("bash", "-c", script)
          .withExposedPorts(PORT)
          .waitingFor(
              Wait.forLogMessage(".*" + READY_READ_ONLY + ".*\\s", 1).withStartupTimeout(STARTUP));
    }
  }
}
