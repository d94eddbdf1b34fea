package io.fusillade.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.codelibs.opensearch.runner.OpenSearchRunner;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.http.HttpServerTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real OpenSearch 2.19 (an Elasticsearch-compatible {@code _bulk} and {@code _search} endpoint),
 * one node or a cluster of several ({@link Builder#nodes(int)}), started inside this JVM (or each
 * node in a JVM of its own: {@link Builder#separateProcess}) from Maven Central jars: no Docker, no
 * installation. It listens on 127.0.0.1 on a free port, keeps its data in a fresh temporary
 * directory, and is stopped (its data removed) by {@link #close()}.
 *
 * <pre>{@code
 * try (LocalOpenSearch os = LocalOpenSearch.start()) {
 *   String url = os.baseUrl(); // http://127.0.0.1:PORT
 * }
 * }</pre>
 *
 * <p>No security plugin is installed, so there is no TLS and no authentication. Starting takes
 * about 7 s on two cores (15 s on the very first run): share one node per test class. In this JVM
 * its heap is this JVM's heap; in its own, {@link Builder#heap}.
 *
 * <p>Why one class of about 600 lines: a third is its {@link Builder} (every setting documented),
 * the rest the life of a cluster's nodes (start, stop, pause, delay, restart one node while the
 * others serve), which share the ports, the processes and the voting configuration kept here; the
 * node's own JVM is {@link OpenSearchMain}.
 */
public final class LocalOpenSearch implements SearchServer {
  private static final String NETTY_PROCESSORS =
      "opensearch.set.netty.runtime.available.processors";
  private static final Logger LOG = LoggerFactory.getLogger(LocalOpenSearch.class);
  private static final String DIRECTORY_PREFIX = "fusillade-os-";

  private final OpenSearchRunner runner; // null when the nodes run in processes of their own
  private final List<OpenSearchProcess> processes; // empty when they run in this JVM
  private final Path directory;
  private final List<Integer> ports;
  private final Map<Integer, DelayProxy> proxies;

  /**
   * @param ports the HTTP port clients connect to, by node: a delay proxy's for a delayable one
   * @param proxies the delay proxies, by node index
   */
  private LocalOpenSearch(
      OpenSearchRunner runner,
      List<OpenSearchProcess> processes,
      Path directory,
      List<Integer> ports,
      Map<Integer, DelayProxy> proxies) {
    this.runner = runner;
    this.processes = List.copyOf(processes);
    this.directory = directory;
    this.ports = List.copyOf(ports);
    this.proxies = Map.copyOf(proxies);
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

  /**
   * The HTTP endpoint of every node, in order: for a node started {@link Builder#delayable(int)},
   * its delay proxy's.
   */
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
   * The pid of each node's JVM, in node order, when they run in processes of their own ({@link
   * Builder#separateProcess}); empty when they share this JVM.
   */
  public List<Long> pids() {
    return processes.stream().map(OpenSearchProcess::pid).toList();
  }

  /**
   * Stops node {@code index} (from 0): the others see it leave, promote replicas of its shards, and
   * its port refuses connections. In this JVM the node is closed; in a process of its own ({@link
   * Builder#separateProcess}) it is killed (SIGKILL), as a crash. {@link #startNode(int)} brings it
   * back on the same ports with its data.
   *
   * @throws IllegalStateException when the node is not running
   */
  public synchronized void stopNode(int index) {
    DelayProxy proxy = proxies.get(index);
    if (proxy != null) {
      proxy.refuse(); // its port refuses connections, as the node's own would
    }
    if (runner == null) {
      OpenSearchProcess process = processes.get(index);
      if (!process.isAlive()) {
        throw new IllegalStateException("OpenSearch node " + (index + 1) + " is not running");
      }
      process.kill();
      return;
    }
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
   * joined the cluster and every index has its primaries (yellow).
   *
   * @throws IllegalStateException when it was not stopped or does not start
   */
  public synchronized void startNode(int index) {
    if (runner == null) {
      OpenSearchProcess process = processes.get(index);
      process.restart();
      process.awaitReady(Duration.ofSeconds(120));
      awaitHealth(httpPorts(), ports.size(), true, Duration.ofSeconds(60));
    } else {
      startInThisJvm(index);
    }
    DelayProxy proxy = proxies.get(index);
    if (proxy != null) {
      proxy.listenAgain();
    }
  }

  private void startInThisJvm(int index) {
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
        .setWaitForYellowStatus() // its state recovered, every primary assigned
        .setWaitForNodes(Integer.toString(ports.size()))
        .setTimeout(TimeValue.timeValueSeconds(60))
        .get();
  }

  /**
   * Freezes node {@code index} (SIGSTOP of its JVM), for stall tests: its connections stay open and
   * what clients send it waits, unanswered, until {@link #resumeNode(int)}; the other nodes see it
   * stop answering too.
   *
   * @throws UnsupportedOperationException when the nodes run in this JVM (freezing it would freeze
   *     the caller): start them with {@link Builder#separateProcess(boolean)}
   */
  public void pauseNode(int index) {
    process(index, "STOP").signal("STOP");
  }

  /** Lets node {@code index} run again after {@link #pauseNode(int)} (SIGCONT). */
  public void resumeNode(int index) {
    process(index, "CONT").signal("CONT");
  }

  private OpenSearchProcess process(int index, String signal) {
    if (runner != null) {
      throw new UnsupportedOperationException(
          "OpenSearch node "
              + (index + 1)
              + " runs in this JVM, which SIG"
              + signal
              + " would freeze too: start the cluster with separateProcess(true)");
    }
    return processes.get(index);
  }

  /** The ports the nodes themselves listen on (behind any delay proxy). */
  private List<Integer> httpPorts() {
    List<Integer> own = new ArrayList<>(ports);
    proxies.forEach((index, proxy) -> own.set(index, proxy.upstreamPort()));
    return own;
  }

  /**
   * Delays what node {@code index} (from 0) answers its HTTP clients by {@code delay} from now on
   * (zero ends it): a network delay on the node's side, as {@code tc netem} would add, for fault
   * tests ({@code delay opensearch 2 by 50ms for 10s}). The cluster's own traffic between nodes is
   * not delayed.
   *
   * @throws IllegalStateException when the node was not started {@link Builder#delayable(int)}
   */
  public void delayNode(int index, Duration delay) {
    DelayProxy proxy = proxies.get(index);
    if (proxy == null) {
      throw new IllegalStateException(
          "OpenSearch node "
              + (index + 1)
              + " was not started delayable: its clients reach it directly");
    }
    proxy.delay(delay);
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
      if (runner != null) {
        runner.close();
      } else {
        stopProcesses(processes);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not stop the embedded OpenSearch on port " + port(), e);
    } finally {
      proxies.values().forEach(DelayProxy::close);
      if (runner != null) {
        runner.clean();
      }
      StaleServers.delete(directory);
    }
  }

  @Override
  public String toString() {
    return "LocalOpenSearch" + baseUrls();
  }

  /** Stops the nodes' JVMs at once, and waits for them. */
  private static void stopProcesses(List<OpenSearchProcess> processes) {
    List<Thread> stoppers = new ArrayList<>();
    for (OpenSearchProcess process : processes) {
      Thread t = new Thread(process::stop, "opensearch-stop");
      t.start();
      stoppers.add(t);
    }
    for (Thread t : stoppers) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(60));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  static OpenSearchRunner quietRunner() {
    return new QuietRunner();
  }

  /**
   * The settings of node {@code index} of a cluster of {@code http.length} nodes, in this JVM or
   * its own ({@link OpenSearchMain}).
   */
  static void nodeSettings(
      org.opensearch.common.settings.Settings.Builder settings,
      int index,
      int[] http,
      int[] transport) {
    int nodes = http.length;
    if (nodes == 1) {
      settings.put("discovery.type", "single-node");
    } else {
      // A cluster's nodes find each other on fixed transport ports. In a JVM of its own the
      // runner sees one node and would make it single-node: say that this one is not.
      List<String> names = new ArrayList<>();
      List<String> seeds = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        names.add("fusillade-" + (i + 1));
        seeds.add("127.0.0.1:" + transport[i]);
      }
      settings.put("discovery.type", "zen");
      settings.put("node.name", names.get(index));
      settings.putList("discovery.seed_hosts", seeds);
      settings.putList("cluster.initial_cluster_manager_nodes", names);
      // A node's start waits up to this long (30 s by default) for a cluster-manager to be
      // elected. In one JVM the runner starts the nodes one after the other, so the first one,
      // alone and without a quorum, waited the whole 30 s for nodes not started yet: `fusillade
      // run --nodes 3` began its load after 36 s instead of 8. The start returns at once instead;
      // the cluster's health (its nodes, yellow) is awaited after every node has started.
      settings.put("discovery.initial_state_timeout", "0s");
    }
    settings.put("network.host", "127.0.0.1");
    settings.put("http.port", Integer.toString(http[index]));
    settings.put("transport.port", Integer.toString(transport[index]));
    // Disk watermarks would turn indexes read-only on a full shared /tmp.
    settings.put("cluster.routing.allocation.disk.threshold_enabled", "false");
    settings.put("action.auto_create_index", "true");
  }

  /**
   * Waits, over HTTP, until the cluster has its {@code nodes} nodes (and, when asked, its indexes
   * are yellow or green).
   */
  private static void awaitHealth(
      List<Integer> httpPorts, int nodes, boolean yellow, Duration timeout) {
    awaitAnswer(
        httpPorts,
        "/_cluster/health?timeout=5s&wait_for_nodes="
            + nodes
            + (yellow ? "&wait_for_status=yellow" : ""),
        body -> body.contains("\"timed_out\":false"),
        timeout,
        "show " + nodes + " nodes");
  }

  /**
   * Waits until the cluster's voting configuration names real nodes only. A cluster bootstraps with
   * the nodes it has found so far and a placeholder for each one still missing, replaced once that
   * one joins: killing a node before then leaves a minority of real voters, and the cluster would
   * wait for its manager until the node came back.
   */
  private static void awaitVoters(List<Integer> httpPorts, Duration timeout) {
    awaitAnswer(
        httpPorts,
        "/_cluster/state/metadata?filter_path=metadata.cluster_coordination",
        body -> body.contains("last_committed_config") && !body.contains("bootstrap-placeholder"),
        timeout,
        "settle its voting configuration");
  }

  /** Asks the nodes in turn for {@code path} until one answers 200 with a body that is done. */
  private static void awaitAnswer(
      List<Integer> httpPorts,
      String path,
      java.util.function.Predicate<String> done,
      Duration timeout,
      String what) {
    java.net.http.HttpClient http =
        java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "no answer";
    try {
      while (true) {
        for (int port : httpPorts) {
          try {
            java.net.http.HttpResponse<String> answer =
                http.send(
                    java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            last = answer.body();
            if (answer.statusCode() == 200 && done.test(last)) {
              return;
            }
          } catch (IOException e) {
            last = e.toString();
          }
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "the embedded OpenSearch did not " + what + " in time: " + last);
        }
        TimeUnit.MILLISECONDS.sleep(200);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for OpenSearch", e);
    }
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
    private boolean separateProcess;
    private String heap = "512m";
    private final java.util.Set<Integer> delayable = new java.util.TreeSet<>();

    private Builder() {}

    /**
     * Lets {@link LocalOpenSearch#delayNode} delay node {@code index} (from 0): its clients reach
     * it through a {@link DelayProxy} in this JVM ({@link LocalOpenSearch#baseUrls()} names it).
     */
    public Builder delayable(int index) {
      delayable.add(index);
      return this;
    }

    /**
     * A cluster of {@code nodes} nodes (default 1), each a data and cluster-manager node on ports
     * of its own: with 3, an index with one replica per shard is green and survives the loss of any
     * one node ({@link #stopNode(int)}).
     */
    public Builder nodes(int nodes) {
      if (nodes < 1 || nodes > 5) {
        throw new IllegalArgumentException("an embedded OpenSearch has 1 to 5 nodes: " + nodes);
      }
      this.nodes = nodes;
      return this;
    }

    /**
     * Runs each node in a JVM of its own ({@link OpenSearchMain}; default: in this JVM), so that a
     * node can be frozen ({@link LocalOpenSearch#pauseNode}) and a benchmark measures the nodes and
     * the load generator apart. Slower to start: each JVM loads OpenSearch.
     */
    public Builder separateProcess(boolean separate) {
      this.separateProcess = separate;
      return this;
    }

    /** The heap of each node's JVM ({@code -Xmx}) when they run in processes of their own. */
    public Builder heap(String size) {
      this.heap = size;
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
      for (int index : delayable) {
        if (index < 0 || index >= nodes) {
          throw new IllegalArgumentException(
              "node " + index + " to delay is not one of the " + nodes + " (from 0)");
        }
      }
      // A JVM killed with kill -9 took its node with it, but not its data directory.
      StaleServers.reap(DIRECTORY_PREFIX, OpenSearchProcess.PID_FILE);
      Path directory;
      try {
        directory = StaleServers.newServerDirectory(DIRECTORY_PREFIX);
      } catch (IOException e) {
        throw new IllegalStateException("could not create a directory for OpenSearch", e);
      }
      Map<Integer, DelayProxy> proxies = new java.util.HashMap<>();
      List<OpenSearchProcess> processes = new ArrayList<>();
      OpenSearchRunner runner = null;
      try {
        // A cluster's nodes find each other on fixed transport ports, and a node started again
        // (a single one too) must come back on its HTTP port, where its clients and any delay
        // proxy look for it: free ports chosen now.
        List<Integer> chosen = FreePorts.of(2 * nodes);
        int[] http = new int[nodes];
        int[] transport = new int[nodes];
        for (int i = 0; i < nodes; i++) {
          http[i] = chosen.get(i);
          transport[i] = chosen.get(nodes + i);
        }
        List<Integer> ports = new ArrayList<>();
        if (separateProcess) {
          String httpList = join(http);
          String transportList = join(transport);
          for (int i = 0; i < nodes; i++) {
            processes.add(
                OpenSearchProcess.start(
                    i,
                    httpList,
                    transportList,
                    clusterName,
                    directory.resolve("node-" + (i + 1)),
                    heap));
          }
          processes.forEach(p -> p.awaitReady(startTimeout));
          for (int port : http) {
            ports.add(port);
          }
          awaitHealth(ports, nodes, true, startTimeout);
        } else {
          runner = inThisJvm(directory, http, transport);
          for (int i = 0; i < nodes; i++) {
            HttpServerTransport transportOf =
                runner.getNode(i).injector().getInstance(HttpServerTransport.class);
            ports.add(transportOf.boundAddress().publishAddress().getPort());
          }
        }
        if (nodes > 1) {
          awaitVoters(ports, startTimeout);
        }
        for (int index : delayable) {
          DelayProxy proxy = DelayProxy.start("127.0.0.1", ports.get(index));
          proxies.put(index, proxy);
          ports.set(index, proxy.port());
        }
        return new LocalOpenSearch(runner, processes, directory, ports, proxies);
      } catch (IOException | RuntimeException e) {
        proxies.values().forEach(DelayProxy::close);
        stopProcesses(processes);
        if (runner != null) {
          try {
            runner.close();
          } catch (IOException | RuntimeException ignored) {
            // the start failure is the news
          }
        }
        StaleServers.delete(directory);
        throw new IllegalStateException(
            "could not start the embedded OpenSearch: " + e.getMessage(), e);
      }
    }

    private OpenSearchRunner inThisJvm(Path directory, int[] http, int[] transport) {
      // In a JVM where Netty already runs (a Gatling run), its processor count is fixed, and
      // OpenSearch's attempt to set it again would fail the start: leave it as it is.
      if (System.getProperty(NETTY_PROCESSORS) == null) {
        System.setProperty(NETTY_PROCESSORS, "false");
      }
      OpenSearchRunner runner = new QuietRunner();
      try {
        // the runner counts its nodes from 1
        runner.onBuild((number, settings) -> nodeSettings(settings, number - 1, http, transport));
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
        return runner;
      } catch (RuntimeException e) {
        try {
          runner.close();
        } catch (IOException | RuntimeException ignored) {
          // the start failure is the news
        }
        throw e;
      }
    }

    private static String join(int[] ports) {
      return java.util.Arrays.stream(ports)
          .mapToObj(Integer::toString)
          .collect(java.util.stream.Collectors.joining(","));
    }
  }
}
