package io.fusillade.containers;

import io.fusillade.local.ChildJvm;
import io.fusillade.local.FreePorts;
import io.fusillade.local.SearchServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

/**
 * OpenSearch or Elasticsearch in containers, one node or a cluster ({@link Builder#nodes}),
 * security off (plain HTTP, no password), as the embedded OpenSearch is: {@code
 * ContainerSearch.openSearch().start()} or {@code ContainerSearch.elasticsearch().start()}.
 *
 * <p>The nodes of a cluster find each other on a private network; each publishes its HTTP port on a
 * host port fixed before it starts ({@link #baseUrls()}). Nodes are numbered from 1 for faults:
 * {@link #pause}, {@link #resume}, {@link #kill} and {@link #restart} ({@code docker pause}, {@code
 * unpause}, {@code kill}, {@code start}).
 */
public final class ContainerSearch implements SearchServer {
  /** The OpenSearch project's image, the version of the embedded node, pulled from Docker Hub. */
  public static final String OPENSEARCH_IMAGE = "opensearchproject/opensearch:2.19.1";

  /**
   * The image {@code docker/image/build-local.sh} builds from the embedded node's Maven artifacts,
   * configured as {@value #OPENSEARCH_IMAGE} is: the default of {@link #openSearch()} when the
   * engine has it.
   */
  public static final String LOCAL_OPENSEARCH_IMAGE = "fusillade/opensearch:2.19.1";

  /** The Elasticsearch image (no local build: Elasticsearch is not on Maven Central). */
  public static final String ELASTICSEARCH_IMAGE =
      "docker.elastic.co/elasticsearch/elasticsearch:8.17.0";

  private static final int PORT = 9200;
  private static final Duration STARTUP = Duration.ofMinutes(3);

  private final ContainerNodes nodes;

  private ContainerSearch(ContainerNodes nodes) {
    this.nodes = nodes;
  }

  /**
   * An OpenSearch node, security plugin disabled, from {@value #LOCAL_OPENSEARCH_IMAGE} when the
   * engine has it, else {@value #OPENSEARCH_IMAGE}.
   */
  public static Builder openSearch() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("DISABLE_SECURITY_PLUGIN", "true");
    env.put("DISABLE_INSTALL_DEMO_CONFIG", "true");
    return new Builder(
        null,
        () -> Docker.image(LOCAL_OPENSEARCH_IMAGE, OPENSEARCH_IMAGE),
        "OPENSEARCH_JAVA_OPTS",
        "cluster.initial_cluster_manager_nodes",
        env);
  }

  /** An Elasticsearch node, security disabled, from {@value #ELASTICSEARCH_IMAGE}. */
  public static Builder elasticsearch() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("xpack.security.enabled", "false");
    return new Builder(
        ELASTICSEARCH_IMAGE,
        () -> ELASTICSEARCH_IMAGE,
        "ES_JAVA_OPTS",
        "cluster.initial_master_nodes",
        env);
  }

  /** The first node's HTTP base URL. */
  @Override
  public String baseUrl() {
    return url(nodes.node(1));
  }

  /** Every node's HTTP base URL, node 1 first. */
  @Override
  public List<String> baseUrls() {
    return nodes.all().stream().map(ContainerSearch::url).toList();
  }

  /** How many nodes the cluster has. */
  public int nodes() {
    return nodes.size();
  }

  /** The image the nodes run. */
  public String image() {
    return nodes.node(1).getDockerImageName();
  }

  /** Freezes node {@code node} (from 1), {@code docker pause}: its connections stay open. */
  public void pause(int node) {
    nodes.pause(node);
  }

  /** Lets a paused node run again. */
  public void resume(int node) {
    nodes.resume(node);
  }

  /** Kills node {@code node} as a crash would ({@code docker kill}). */
  public void kill(int node) {
    nodes.kill(node);
  }

  /** Starts a killed node again, on its port, and returns once it answers HTTP. */
  public void restart(int node) {
    nodes.restart(node, ContainerSearch::answers);
  }

  /** Removes every node, a paused one too, and their network. */
  @Override
  public void close() {
    nodes.close();
  }

  @Override
  public String toString() {
    return image() + " (" + nodes.size() + " node(s)) at " + baseUrl();
  }

  private static String url(GenericContainer<?> node) {
    return "http://" + node.getHost() + ":" + node.getMappedPort(PORT);
  }

  private static boolean answers(GenericContainer<?> node) {
    try {
      HttpResponse<Void> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(url(node) + "/"))
                      .timeout(Duration.ofSeconds(2))
                      .build(),
                  HttpResponse.BodyHandlers.discarding());
      return response.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** How to start it: the image (of the same product), the nodes, their heap, extra settings. */
  public static final class Builder {
    private String image;
    private final Supplier<String> defaultImage;
    private final String javaOptionsVariable;
    private final String initialManagersSetting;
    private final Map<String, String> env;
    private int nodes = 1;
    private String heap = "512m";

    private Builder(
        String image,
        Supplier<String> defaultImage,
        String javaOptionsVariable,
        String initialManagersSetting,
        Map<String, String> env) {
      this.image = image;
      this.defaultImage = defaultImage;
      this.javaOptionsVariable = javaOptionsVariable;
      this.initialManagersSetting = initialManagersSetting;
      this.env = env;
    }

    /** Another version or build of the same product's image. */
    public Builder image(String image) {
      this.image = image;
      return this;
    }

    /** A node setting as an environment variable, e.g. {@code indices.memory.index_buffer_size}. */
    public Builder setting(String name, String value) {
      env.put(name, value);
      return this;
    }

    /** How many nodes (1 by default): 3 for a cluster whose indexes can have a replica per node. */
    public Builder nodes(int nodes) {
      if (nodes < 1) {
        throw new IllegalArgumentException("a search cluster needs at least one node: " + nodes);
      }
      this.nodes = nodes;
      return this;
    }

    /** Each node's heap ({@code -Xms} and {@code -Xmx}), {@code 512m} by default. */
    public Builder heap(String heap) {
      this.heap = heap;
      return this;
    }

    /** Starts the nodes together and waits until each answers its cluster's health. */
    public ContainerSearch start() {
      DockerImageName name = DockerImageName.parse(image != null ? image : defaultImage.get());
      Network network = nodes > 1 ? Network.newNetwork() : null;
      List<String> names = IntStream.rangeClosed(1, nodes).mapToObj(i -> "search" + i).toList();
      List<Integer> ports = FreePorts.of(nodes);
      List<GenericContainer<?>> containers = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        Map<String, String> nodeEnv = new LinkedHashMap<>(env);
        nodeEnv.put(
            javaOptionsVariable,
            "-Xms" + heap + " -Xmx" + heap + " " + String.join(" ", ChildJvm.extraOptions()));
        if (nodes == 1) {
          nodeEnv.put("discovery.type", "single-node");
        } else {
          nodeEnv.put("cluster.name", "fusillade");
          nodeEnv.put("node.name", names.get(i));
          nodeEnv.put("discovery.seed_hosts", String.join(",", names));
          nodeEnv.put(initialManagersSetting, String.join(",", names));
        }
        GenericContainer<?> node =
            new GenericContainer<>(name)
                .withEnv(nodeEnv)
                .withExposedPorts(PORT)
                // answers 200 once the node is in a cluster that has elected its manager
                .waitingFor(
                    Wait.forHttp("/_cluster/health")
                        .forPort(PORT)
                        .forStatusCode(200)
                        .withStartupTimeout(STARTUP));
        if (network != null) {
          node.withNetwork(network).withNetworkAliases(names.get(i));
        }
        node.setPortBindings(List.of(Docker.publishAddress() + ports.get(i) + ":" + PORT));
        containers.add(node);
      }
      try {
        Startables.deepStart(containers).join();
      } catch (RuntimeException e) {
        throw ContainerNodes.abandon(e, containers, network);
      }
      return new ContainerSearch(new ContainerNodes("search node", containers, network));
    }
  }
}
