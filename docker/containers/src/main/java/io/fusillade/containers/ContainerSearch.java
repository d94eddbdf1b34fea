package io.fusillade.containers;

import io.fusillade.local.SearchServer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * One OpenSearch or Elasticsearch node in a container, security off (plain HTTP, no password), as
 * the embedded OpenSearch is: {@code ContainerSearch.openSearch().start()} or {@code
 * ContainerSearch.elasticsearch().start()}.
 */
public final class ContainerSearch implements SearchServer {
  /** The OpenSearch image, the version of the embedded node. */
  public static final String OPENSEARCH_IMAGE = "opensearchproject/opensearch:2.19.1";

  /** The Elasticsearch image. */
  public static final String ELASTICSEARCH_IMAGE =
      "docker.elastic.co/elasticsearch/elasticsearch:8.17.0";

  private static final int PORT = 9200;

  private final GenericContainer<?> node;

  private ContainerSearch(GenericContainer<?> node) {
    this.node = node;
  }

  /** An OpenSearch node, security plugin disabled. */
  public static Builder openSearch() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("discovery.type", "single-node");
    env.put("DISABLE_SECURITY_PLUGIN", "true");
    env.put("DISABLE_INSTALL_DEMO_CONFIG", "true");
    env.put("OPENSEARCH_JAVA_OPTS", "-Xms512m -Xmx512m");
    return new Builder(OPENSEARCH_IMAGE, env);
  }

  /** An Elasticsearch node, security disabled. */
  public static Builder elasticsearch() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("discovery.type", "single-node");
    env.put("xpack.security.enabled", "false");
    env.put("ES_JAVA_OPTS", "-Xms512m -Xmx512m");
    return new Builder(ELASTICSEARCH_IMAGE, env);
  }

  @Override
  public String baseUrl() {
    return "http://" + node.getHost() + ":" + node.getMappedPort(PORT);
  }

  @Override
  public void close() {
    node.stop();
  }

  @Override
  public String toString() {
    return node.getDockerImageName() + " at " + baseUrl();
  }

  /** How to start it: the image (of the same product) and extra settings. */
  public static final class Builder {
    private String image;
    private final Map<String, String> env;

    private Builder(String image, Map<String, String> env) {
      this.image = image;
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

    /** Starts the node and waits until its cluster health answers. */
    public ContainerSearch start() {
      GenericContainer<?> node =
          new GenericContainer<>(DockerImageName.parse(image))
              .withEnv(env)
              .withExposedPorts(PORT)
              .waitingFor(
                  Wait.forHttp("/_cluster/health")
                      .forPort(PORT)
                      .forStatusCode(200)
                      .withStartupTimeout(Duration.ofMinutes(3)));
      node.start();
      return new ContainerSearch(node);
    }
  }
}
