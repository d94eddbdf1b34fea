package io.fusillade.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.codelibs.opensearch.runner.OpenSearchRunner;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.http.HttpServerTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real OpenSearch 2.19 (an Elasticsearch-compatible {@code _bulk} and {@code _search} endpoint),
 * one node or a cluster of several ({@link Builder#nodes(int)}), started inside this JVM from Maven
 * Central jars: no Docker, no installation. It listens on 127.0.0.1 on a free port, keeps its data
 * in a fresh temporary directory, and is stopped (its data removed) by {@link #close()}.
 *
 * <pre>{@code
 * try (LocalOpenSearch os = LocalOpenSearch.start()) {
 *   String url = os.baseUrl(); // http://127.0.0.1:PORT
 * }
 * }</pre>
 *
 * <p>No security plugin is installed, so there is no TLS and no authentication. Starting takes
 * about 7 s on two cores (15 s on the very first run): share one node per test class. Its heap is
 * this JVM's heap.
 */
public final class LocalOpenSearch implements SearchServer {
  private static final String NETTY_PROCESSORS =
      "opensearch.set.netty.runtime.available.processors";
  private static final Logger LOG = LoggerFactory.getLogger(LocalOpenSearch.class);
  private static final String DIRECTORY_PREFIX = "fusillade-os-";

  private final OpenSearchRunner runner;
  private final Path directory;
  private final List<Integer> ports;

  private LocalOpenSearch(OpenSearchRunner runner, Path directory, List<Integer> ports) {
    this.runner = runner;
    this.directory = directory;
    this.ports = List.copyOf(ports);
  }

  /** Starts a node with the default settings. */
  public static LocalOpenSearch start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The HTTP endpoint of the first node, {@code http://127.0.0.1:PORT}, without a trailing slash.
   */
  @Override
  public String baseUrl() {
    return baseUrls().get(0);
  }

  /** The HTTP endpoint of every node, in order. */
  @Override
  public List<String> baseUrls() {
    return ports.stream().map(p -> "http://127.0.0.1:" + p).toList();
  }

  /** The first node's HTTP port. */
  public int port() {
    return ports.get(0);
  }

  /** How many nodes the cluster has. */
  public int nodes() {
    return ports.size();
  }

  /**
   * Stops node {@code index} (from 0): the others see it leave, promote replicas of its shards, and
   * its port refuses connections. It runs in this JVM, so this is a close of the node, not a
   * SIGKILL. {@link #startNode(int)} brings it back on the same ports with its data.
   *
   * @throws IllegalStateException when the node is not running
   */
  public synchronized void stopNode(int index) {
    org.opensearch.node.Node node = runner.getNode(index);
    if (node == null || node.isClosed()) {
      throw new IllegalStateException("OpenSearch node " + (index + 1) + " is not running");
    }
    try {
      node.close();
    } catch (IOException e) {
      throw new UncheckedIOException("could not stop OpenSearch node " + (index + 1), e);
    }
  }

  /**
   * Starts node {@code index} stopped by {@link #stopNode(int)} again, and waits until it has
   * joined the cluster.
   *
   * @throws IllegalStateException when it was not stopped or does not start
   */
  public synchronized void startNode(int index) {
    org.opensearch.node.Node node = runner.getNode(index);
    if (node != null && !node.isClosed()) {
      throw new IllegalStateException("OpenSearch node " + (index + 1) + " is running");
    }
    if (!runner.startNode(index)) {
      throw new IllegalStateException("OpenSearch node " + (index + 1) + " did not start");
    }
    runner
        .node()
        .client()
        .admin()
        .cluster()
        .prepareHealth()
        .setWaitForNodes(Integer.toString(ports.size()))
        .setTimeout(TimeValue.timeValueSeconds(60))
        .get();
  }

  /** The node's own directory (package-private: tests check its removal). */
  Path directoryForTests() {
    return directory;
  }

  /** Stops the nodes and removes their data. */
  @Override
  public void close() {
    if (ports.size() > 1) {
      // The last nodes of a cluster closing one by one lose their quorum, and say so with an
      // ERROR and a stack trace on the console: noise, at the end of every run.
      org.apache.logging.log4j.core.config.Configurator.setLevel(
          "org.opensearch.cluster", org.apache.logging.log4j.Level.OFF);
    }
    try {
      runner.close();
    } catch (IOException e) {
      throw new UncheckedIOException("could not stop the embedded OpenSearch on port " + port(), e);
    } finally {
      runner.clean();
      StaleServers.delete(directory);
    }
  }

  @Override
  public String toString() {
    return "LocalOpenSearch" + baseUrls();
  }

  /**
   * The runner prints its set-up to standard output, including the port it would have chosen (not
   * the one the node binds, since we ask for a free one): send that to the debug log.
   */
  private static final class QuietRunner extends OpenSearchRunner {
    @Override
    public void print(String line) {
      LOG.debug("{}", line);
    }
  }

  /** Settings of a node to start. Mutable, single use. */
  public static final class Builder {
    private String clusterName = "fusillade";
    private Duration startTimeout = Duration.ofSeconds(120);
    private int nodes = 1;

    private Builder() {}

    /**
     * A cluster of {@code nodes} nodes (default 1), each a data and cluster-manager node on ports
     * of its own, in this JVM: with 3, an index with one replica per shard is green and survives
     * the loss of any one node ({@link #stopNode(int)}).
     */
    public Builder nodes(int nodes) {
      if (nodes < 1 || nodes > 5) {
        throw new IllegalArgumentException("an embedded OpenSearch has 1 to 5 nodes: " + nodes);
      }
      this.nodes = nodes;
      return this;
    }

    public Builder clusterName(String name) {
      this.clusterName = name;
      return this;
    }

    /** How long to wait for the node to turn yellow (default 120 s). */
    public Builder startTimeout(Duration timeout) {
      this.startTimeout = timeout;
      return this;
    }

    /**
     * Starts the node and waits until it serves requests.
     *
     * @throws IllegalStateException when it cannot start, with OpenSearch's reason
     */
    public LocalOpenSearch start() {
      // A JVM killed with kill -9 took its node with it, but not its data directory.
      StaleServers.reap(DIRECTORY_PREFIX, "no-pid-file");
      Path directory;
      try {
        directory = StaleServers.newServerDirectory(DIRECTORY_PREFIX);
      } catch (IOException e) {
        throw new IllegalStateException("could not create a directory for OpenSearch", e);
      }
      // In a JVM where Netty already runs (a Gatling run), its processor count is fixed, and
      // OpenSearch's attempt to set it again would fail the start: leave it as it is.
      if (System.getProperty(NETTY_PROCESSORS) == null) {
        System.setProperty(NETTY_PROCESSORS, "false");
      }
      OpenSearchRunner runner = new QuietRunner();
      try {
        // A cluster's nodes find each other on fixed transport ports, and a node started again
        // must come back on its HTTP port: free ports chosen now. A single node takes port 0 (the
        // operating system picks free ports when it binds, so parallel builds never collide).
        List<Integer> chosen = nodes == 1 ? List.of(0, 0) : FreePorts.of(2 * nodes);
        int[] http = new int[nodes];
        int[] transport = new int[nodes];
        for (int i = 0; i < nodes; i++) {
          http[i] = chosen.get(i);
          transport[i] = chosen.get(nodes == 1 ? 1 : nodes + i);
        }
        List<String> names = new ArrayList<>();
        List<String> seeds = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
          names.add("fusillade-" + (i + 1));
          seeds.add("127.0.0.1:" + transport[i]);
        }
        runner.onBuild(
            (number, settings) -> {
              int index = number - 1; // the runner counts its nodes from 1
              if (nodes == 1) {
                settings.put("discovery.type", "single-node");
              } else {
                settings.put("node.name", names.get(index));
                settings.putList("discovery.seed_hosts", seeds);
                settings.putList("cluster.initial_cluster_manager_nodes", names);
              }
              settings.put("network.host", "127.0.0.1");
              settings.put("http.port", Integer.toString(http[index]));
              settings.put("transport.port", Integer.toString(transport[index]));
              // Disk watermarks would turn indexes read-only on a full shared /tmp.
              settings.put("cluster.routing.allocation.disk.threshold_enabled", "false");
              settings.put("action.auto_create_index", "true");
            });
        runner.build(
            OpenSearchRunner.newConfigs()
                .clusterName(clusterName)
                .numOfNode(nodes)
                .basePath(directory.resolve("data").toString())
                .disableESLogger());
        runner
            .admin()
            .cluster()
            .prepareHealth()
            .setWaitForYellowStatus()
            .setWaitForNodes(Integer.toString(nodes))
            .setTimeout(TimeValue.timeValueMillis(startTimeout.toMillis()))
            .get();
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
          HttpServerTransport transportOf =
              runner.getNode(i).injector().getInstance(HttpServerTransport.class);
          ports.add(transportOf.boundAddress().publishAddress().getPort());
        }
        return new LocalOpenSearch(runner, directory, ports);
      } catch (RuntimeException e) {
        try {
          runner.close();
        } catch (IOException | RuntimeException ignored) {
          // the start failure is the news
        }
        StaleServers.delete(directory);
        throw new IllegalStateException(
            "could not start the embedded OpenSearch: " + e.getMessage(), e);
      }
    }
  }
}
