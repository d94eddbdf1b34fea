package io.fusillade.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import org.codelibs.opensearch.runner.OpenSearchRunner;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.http.HttpServerTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node OpenSearch 2.19 (an Elasticsearch-compatible {@code _bulk} and {@code _search}
 * endpoint) started inside this JVM from Maven Central jars: no Docker, no installation. It listens
 * on 127.0.0.1 on a free port, keeps its data in a fresh temporary directory, and is stopped (its
 * data removed) by {@link #close()}.
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
  private final int port;

  private LocalOpenSearch(OpenSearchRunner runner, Path directory, int port) {
    this.runner = runner;
    this.directory = directory;
    this.port = port;
  }

  /** Starts a node with the default settings. */
  public static LocalOpenSearch start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The HTTP endpoint, {@code http://127.0.0.1:PORT}, without a trailing slash. */
  public String baseUrl() {
    return "http://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /** The node's own directory (package-private: tests check its removal). */
  Path directoryForTests() {
    return directory;
  }

  /** Stops the node and removes its data. */
  @Override
  public void close() {
    try {
      runner.close();
    } catch (IOException e) {
      throw new UncheckedIOException("could not stop the embedded OpenSearch on port " + port, e);
    } finally {
      runner.clean();
      StaleServers.delete(directory);
    }
  }

  @Override
  public String toString() {
    return "LocalOpenSearch[" + baseUrl() + "]";
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

    private Builder() {}

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
        runner.onBuild(
            (index, settings) -> {
              settings.put("discovery.type", "single-node");
              settings.put("network.host", "127.0.0.1");
              // 0: the operating system picks free ports, so parallel builds never collide.
              settings.put("http.port", "0");
              settings.put("transport.port", "0");
              // Disk watermarks would turn indexes read-only on a full shared /tmp.
              settings.put("cluster.routing.allocation.disk.threshold_enabled", "false");
              settings.put("action.auto_create_index", "true");
            });
        runner.build(
            OpenSearchRunner.newConfigs()
                .clusterName(clusterName)
                .numOfNode(1)
                .basePath(directory.resolve("data").toString())
                .disableESLogger());
        runner.ensureYellow();
        runner
            .admin()
            .cluster()
            .prepareHealth()
            .setWaitForYellowStatus()
            .setTimeout(TimeValue.timeValueMillis(startTimeout.toMillis()))
            .get();
        HttpServerTransport http = runner.node().injector().getInstance(HttpServerTransport.class);
        int port = http.boundAddress().publishAddress().getPort();
        return new LocalOpenSearch(runner, directory, port);
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
