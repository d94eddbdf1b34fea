package io.fusillade.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A real seq-db (the log store of seed 002: Elasticsearch's {@code _bulk} for writes, its own
 * {@code /search}, {@code /aggregate} and {@code /histogram} for reads), started from the {@code
 * seq-db} binary ({@link SeqDbBinary}): one node in {@code --mode single} (the default), or an
 * ingestor ({@code --mode proxy}) in front of {@link Builder#stores(int) N stores} ({@code --mode
 * store}), each a process of its own. Every process listens on 127.0.0.1 on free ports, keeps its
 * data in a fresh temporary directory, and is stopped (its data removed) by {@link #close()}; one
 * left behind by a killed JVM is stopped by {@link LocalServers#stopOrphans} or the next start.
 *
 * <pre>{@code
 * try (LocalSeqDb seqDb = LocalSeqDb.builder().mapping(mappingYaml).start()) {
 *   String url = seqDb.baseUrl(); // http://127.0.0.1:PORT: POST /_bulk, POST /search
 * }
 * }</pre>
 *
 * <p>Nodes are counted from 0 here and from 1 in faults ({@code kill seq-db 2}): node 0 is the
 * single node, or the ingestor; nodes 1 to N are the stores. Starting takes well under a second.
 *
 * <p>Settings that differ from seq-db's defaults, because they would cap a load test rather than
 * measure the store: {@code --query-rate-limit} (2 searches per second by default) and {@code
 * --total-size} (1 GB by default, beyond which the oldest data is deleted). Others go through
 * {@link Builder#option}.
 */
public final class LocalSeqDb implements SearchServer {
  private static final String DIRECTORY_PREFIX = "fusillade-seqdb-";

  private final List<SeqDbProcess> processes;
  private final Path directory;
  private final int httpPort; // the ingestor's, or its delay proxy's
  private final int ownHttpPort; // the ingestor's own
  private final Map<Integer, DelayProxy> proxies;

  private LocalSeqDb(
      List<SeqDbProcess> processes,
      Path directory,
      int httpPort,
      int ownHttpPort,
      Map<Integer, DelayProxy> proxies) {
    this.processes = List.copyOf(processes);
    this.directory = directory;
    this.httpPort = httpPort;
    this.ownHttpPort = ownHttpPort;
    this.proxies = Map.copyOf(proxies);
  }

  /** One node in single mode, every field indexed as a keyword ({@code --mapping auto}). */
  public static LocalSeqDb start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The HTTP endpoint of the single node or the ingestor, {@code http://127.0.0.1:PORT}: {@code
   * _bulk} and the search API. Through its delay proxy when node 0 is {@link Builder#delayable}.
   */
  @Override
  public String baseUrl() {
    return "http://127.0.0.1:" + httpPort;
  }

  /** The processes: 1 in single mode, else the ingestor and its stores. */
  public int nodes() {
    return processes.size();
  }

  /** The number of stores behind the ingestor, 0 in single mode. */
  public int stores() {
    return processes.size() - 1;
  }

  /**
   * The pid of each process, in node order: to measure their CPU and memory ({@code /proc}).
   *
   * @return the pids of the processes now (a restarted node has a new one)
   */
  public List<Long> pids() {
    return processes.stream().map(SeqDbProcess::pid).toList();
  }

  /**
   * Kills node {@code index} (from 0) with SIGKILL, as a crash: its ports refuse connections.
   * {@link #startNode(int)} starts it again on the same ports with its data.
   *
   * @throws IllegalStateException when it is not running
   */
  public synchronized void stopNode(int index) {
    SeqDbProcess process = process(index);
    if (!process.isAlive()) {
      throw new IllegalStateException(process + " is not running");
    }
    DelayProxy proxy = proxies.get(index);
    if (proxy != null) {
      proxy.refuse(); // its port refuses connections, as the node's own would
    }
    process.kill();
  }

  /**
   * Starts node {@code index}, stopped by {@link #stopNode(int)}, again and waits until it is ready
   * (it replays its active fraction first); a store, until the ingestor reaches it again too (a
   * search through it is answered whole, up to 30 s: the ingestor's reconnection is seq-db's own,
   * and part of what a fault measures).
   *
   * @throws IllegalStateException when it runs, or does not start
   */
  public synchronized void startNode(int index) {
    SeqDbProcess process = process(index);
    process.restart();
    process.awaitReady(Duration.ofSeconds(60));
    DelayProxy proxy = proxies.get(index);
    if (proxy != null) {
      proxy.listenAgain();
    }
    if (index > 0 && processes.get(0).isAlive()) {
      awaitStoresReached(Duration.ofSeconds(30));
    }
  }

  /**
   * Waits until a search through the ingestor reaches every store: one answered {@code
   * ERROR_CODE_NO} rather than as a partial response.
   */
  private void awaitStoresReached(Duration timeout) {
    java.net.http.HttpClient http =
        java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    java.net.http.HttpRequest search =
        java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + ownHttpPort + "/search"))
            .header("Grpc-Metadata-use-seq-ql", "true")
            .POST(
                java.net.http.HttpRequest.BodyPublishers.ofString(
                    "{\"query\":{\"query\":\"*\",\"from\":\"2000-01-01T00:00:00Z\","
                        + "\"to\":\"2099-12-31T23:59:59Z\"},\"size\":1}"))
            .timeout(Duration.ofSeconds(5))
            .build();
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (System.nanoTime() < deadline) {
        try {
          java.net.http.HttpResponse<String> answer =
              http.send(search, java.net.http.HttpResponse.BodyHandlers.ofString());
          if (answer.statusCode() == 200 && answer.body().contains("ERROR_CODE_NO")) {
            return;
          }
        } catch (IOException notYet) {
          // the ingestor is busy or frozen: try again
        }
        Thread.sleep(100);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Freezes node {@code index} (SIGSTOP): its connections stay open and what clients send it waits,
   * unanswered, until {@link #resumeNode(int)}.
   */
  public void pauseNode(int index) {
    process(index).signal("STOP");
  }

  /** Lets node {@code index} run again after {@link #pauseNode(int)} (SIGCONT). */
  public void resumeNode(int index) {
    process(index).signal("CONT");
  }

  /**
   * Delays what node {@code index} answers by {@code delay} from now on (zero ends it): the
   * ingestor's answers to its HTTP clients, or a store's to the ingestor.
   *
   * @throws IllegalStateException when the node was not started {@link Builder#delayable(int)}
   */
  public void delayNode(int index, Duration delay) {
    DelayProxy proxy = proxies.get(index);
    if (proxy == null) {
      throw new IllegalStateException(
          process(index) + " was not started delayable: its clients reach it directly");
    }
    proxy.delay(delay);
  }

  private SeqDbProcess process(int index) {
    if (index < 0 || index >= processes.size()) {
      throw new IllegalArgumentException(
          "seq-db has nodes 0 to " + (processes.size() - 1) + ", not " + index);
    }
    return processes.get(index);
  }

  /** The server's own directory (package-private: tests check its removal). */
  Path directoryForTests() {
    return directory;
  }

  /** Stops every process (the ingestor first) and removes their data. */
  @Override
  public void close() {
    try {
      for (SeqDbProcess process : processes) {
        process.stop();
      }
    } finally {
      proxies.values().forEach(DelayProxy::close);
      StaleServers.delete(directory);
    }
  }

  @Override
  public String toString() {
    return "LocalSeqDb[" + baseUrl() + ", " + processes + "]";
  }

  /** Settings of a seq-db to start. Mutable, single use. */
  public static final class Builder {
    private String binary;
    private int stores;
    private int replicas = 1;
    private String mapping;
    private final Map<String, String> options = new LinkedHashMap<>();
    private final Set<Integer> delayable = new TreeSet<>();
    private Duration startTimeout = Duration.ofSeconds(60);

    private Builder() {
      options.put("--query-rate-limit", "1000000");
      options.put("--total-size", "100GB");
    }

    /** The binary; default: found as {@link SeqDbBinary} says. */
    public Builder binary(String path) {
      this.binary = path;
      return this;
    }

    /**
     * An ingestor in front of {@code count} stores (at least 1) instead of one node in single mode
     * (0, the default). The stores form {@code count / replicas} shards.
     */
    public Builder stores(int count) {
      if (count < 0 || count > 6) {
        throw new IllegalArgumentException("an embedded seq-db has 0 to 6 stores: " + count);
      }
      this.stores = count;
      return this;
    }

    /** How many stores hold each shard (seq-db's {@code --replicas}; default 1). */
    public Builder replicas(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("replicas must be >= 1: " + count);
      }
      this.replicas = count;
      return this;
    }

    /**
     * The mapping file's content (seq-db's YAML: {@code mapping-list: [{name, type}]}, types {@code
     * keyword}, {@code text}, {@code path}, {@code exists}); null (the default) indexes every field
     * as a keyword ({@code --mapping auto}).
     */
    public Builder mapping(String yaml) {
      this.mapping = yaml;
      return this;
    }

    /**
     * A flag for every process ({@code option("--frac-size", "32KB")}), replacing the default of
     * that flag.
     */
    public Builder option(String flag, String value) {
      if (!flag.startsWith("--")) {
        throw new IllegalArgumentException("a seq-db flag starts with --: " + flag);
      }
      options.put(flag, value);
      return this;
    }

    /** Lets {@link LocalSeqDb#delayNode} delay node {@code index}: reached through a proxy. */
    public Builder delayable(int index) {
      delayable.add(index);
      return this;
    }

    /** How long each process may take to be ready (default 60 s). */
    public Builder startTimeout(Duration timeout) {
      this.startTimeout = timeout;
      return this;
    }

    /**
     * Starts the processes (the stores first) and waits until each is ready.
     *
     * @throws IllegalStateException when there is no binary ({@link SeqDbBinary#HOW_TO_BUILD}), or
     *     a process does not start, with the end of its log
     */
    public LocalSeqDb start() {
      Path executable = SeqDbBinary.require(binary);
      int nodes = 1 + stores;
      if (stores > 0 && stores % replicas != 0) {
        throw new IllegalArgumentException(
            stores + " stores do not split into shards of " + replicas + " replicas");
      }
      for (int index : delayable) {
        if (index < 0 || index >= nodes) {
          throw new IllegalArgumentException(
              "node " + index + " to delay is not one of the " + nodes + " (from 0)");
        }
      }
      // A JVM killed with kill -9 left its seq-db running: a Go process outlives its parent.
      StaleServers.reap(DIRECTORY_PREFIX, SeqDbProcess.PID_FILE);
      Path directory;
      try {
        directory = StaleServers.newServerDirectory(DIRECTORY_PREFIX);
      } catch (IOException e) {
        throw new IllegalStateException("could not create a directory for seq-db", e);
      }
      List<SeqDbProcess> processes = new ArrayList<>();
      Map<Integer, DelayProxy> proxies = new HashMap<>();
      try {
        String mappingArg = "auto";
        if (mapping != null) {
          Path file = directory.resolve("mapping.yaml");
          Files.writeString(file, mapping, StandardCharsets.UTF_8);
          mappingArg = file.toString();
        }
        // node i: its --addr, then --proxy-grpc-addr, then --debug-addr
        List<Integer> ports = FreePorts.of(3 * nodes);
        List<String> storeAddresses = new ArrayList<>();
        for (int i = 1; i < nodes; i++) {
          int port = ports.get(3 * i);
          if (delayable.contains(i)) {
            DelayProxy proxy = DelayProxy.start("127.0.0.1", port);
            proxies.put(i, proxy);
            port = proxy.port();
          }
          storeAddresses.add("127.0.0.1:" + port);
        }
        for (int i = 1; i < nodes; i++) {
          processes.add(
              launch(executable, "store", i, directory, mappingArg, ports, List.of("--data-dir")));
        }
        processes.forEach(p -> p.awaitReady(startTimeout));
        List<String> front = new ArrayList<>();
        if (stores > 0) {
          front.add("--hot-stores=" + String.join(",", storeAddresses));
          front.add("--replicas=" + replicas);
        } else {
          front.add("--data-dir");
        }
        SeqDbProcess first =
            launch(
                executable,
                stores > 0 ? "proxy" : "single",
                0,
                directory,
                mappingArg,
                ports,
                front);
        processes.add(0, first);
        first.awaitReady(startTimeout);
        int http = ports.get(0);
        if (delayable.contains(0)) {
          DelayProxy proxy = DelayProxy.start("127.0.0.1", http);
          proxies.put(0, proxy);
          http = proxy.port();
        }
        return new LocalSeqDb(processes, directory, http, ports.get(0), proxies);
      } catch (IOException | RuntimeException e) {
        processes.forEach(SeqDbProcess::kill);
        proxies.values().forEach(DelayProxy::close);
        StaleServers.delete(directory);
        if (e instanceof IllegalStateException && e.getMessage() != null) {
          throw new IllegalStateException("could not start the embedded seq-db: " + e.getMessage());
        }
        throw new IllegalStateException("could not start the embedded seq-db: " + e, e);
      }
    }

    /**
     * One process. {@code extra} holds its mode's flags; a lone {@code --data-dir} stands for its
     * own data directory.
     */
    private SeqDbProcess launch(
        Path executable,
        String mode,
        int index,
        Path directory,
        String mappingArg,
        List<Integer> ports,
        List<String> extra)
        throws IOException {
      Path node = directory.resolve("node-" + (index + 1));
      Path data = node.resolve("data").resolve("store");
      Files.createDirectories(data);
      List<String> line = new ArrayList<>();
      line.add(executable.toString());
      line.add("--mode=" + mode);
      line.add("--mapping=" + mappingArg);
      line.add("--addr=127.0.0.1:" + ports.get(3 * index));
      line.add("--proxy-grpc-addr=127.0.0.1:" + ports.get(3 * index + 1));
      line.add("--debug-addr=127.0.0.1:" + ports.get(3 * index + 2));
      for (String flag : extra) {
        line.add(flag.equals("--data-dir") ? "--data-dir=" + data : flag);
      }
      options.forEach((flag, value) -> line.add(flag + "=" + value));
      String name =
          switch (mode) {
            case "single" -> "seq-db";
            case "proxy" -> "seq-db ingestor";
            default -> "seq-db store " + index;
          };
      return SeqDbProcess.start(name, node, line, ports.get(3 * index + 2));
    }

    @Override
    public String toString() {
      return "LocalSeqDb.Builder[stores="
          + stores
          + ", replicas="
          + replicas
          + ", options="
          + options.entrySet().stream()
              .map(e -> e.getKey() + "=" + e.getValue())
              .collect(Collectors.joining(" "))
          + "]";
    }
  }
}
