package io.fusillade.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A real Kafka cluster (KRaft, Kafka 4.3.1) on this machine: one node, or three for replication
 * factor 3. Every node is a combined broker and controller listening on 127.0.0.1 on free ports,
 * with its log directory in a temporary directory that {@link #close()} removes.
 *
 * <pre>{@code
 * try (LocalKafka kafka = LocalKafka.builder().brokers(3).separateProcess(true).start()) {
 *   String bootstrap = kafka.bootstrapServers(); // 127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3
 *   kafka.stopBroker(2); // a failure test: the other two go on
 * }
 * }</pre>
 *
 * <p>Nodes run in this JVM by default (quickest to start, good for tests). With {@link
 * Builder#separateProcess(boolean)} each node runs in its own JVM ({@link KafkaMain}, heap {@link
 * Builder#heap(String)}), so that a benchmark measures the broker and the load generator apart; a
 * child ends the moment its owner does, whatever either was doing ({@link
 * ChildJvm#exitWhenParentEnds()}), and the brokers' directories go with them ({@link OwnerWatch}).
 *
 * <p>Why one class of about 700 lines: one cluster's life cycle (ports, data directories and their
 * disks, brokers in this JVM or in their own, faults on each, close) over one set of state; the
 * broker process itself is KafkaMain, a disk of a chosen size BrokerDisk, and each fault is a short
 * method of the same cluster.
 */
public final class LocalKafka implements KafkaServer {
  private static final String DIRECTORY_PREFIX = "fusillade-kafka-";
  private static final String PID_FILE = "kafka.pid";

  private final List<Node> nodes;
  private final List<Integer> brokerPorts;
  private final Map<Integer, DelayProxy> proxies;
  private final List<BrokerDisk> disks;
  private final String bootstrapServers;

  /**
   * @param brokerPorts the port clients connect to, by broker: a delay proxy's for a delayable one
   * @param proxies the delay proxies, by broker index
   * @param disks the brokers' disks of a chosen size, by broker; empty when none was chosen
   */
  private LocalKafka(
      List<Node> nodes,
      List<Integer> brokerPorts,
      Map<Integer, DelayProxy> proxies,
      List<BrokerDisk> disks) {
    this.nodes = nodes;
    this.brokerPorts = brokerPorts;
    this.proxies = proxies;
    this.disks = disks;
    this.bootstrapServers =
        brokerPorts.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
  }

  /** Starts one broker in this JVM. */
  public static LocalKafka start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code 127.0.0.1:port[,127.0.0.1:port...]}, for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /**
   * The brokers' log directories ({@code log.dirs}), where their partitions' segments are: what a
   * run watches to see the brokers' disk use.
   *
   * @return one directory per broker
   */
  public List<Path> logDirectories() {
    return nodes.stream().map(n -> n.directory.resolve("data").resolve("logs")).toList();
  }

  /**
   * The brokers' disks when the cluster was started with {@link Builder#diskSize(long)}, by broker:
   * each a tmpfs of that size on its log directory, or a quota where mounting was refused.
   *
   * @return one per broker, or empty when the log directories are on the machine's own disk
   */
  public List<BrokerDisk> disks() {
    return disks;
  }

  /**
   * The highest share, in %, of its disk that a broker uses now ({@link BrokerDisk#usePercent()}):
   * 100 is a full disk.
   *
   * @return the percentage, or NaN without {@link Builder#diskSize(long)} or once closed
   */
  public double diskUsePercent() {
    return disks.stream()
        .mapToDouble(BrokerDisk::usePercent)
        .filter(Double::isFinite)
        .max()
        .orElse(Double.NaN);
  }

  /**
   * The first broker whose disk filled, in its own words ({@code broker 0's disk is full: Error
   * while appending records to t-0: No space left on device}, from its log), or empty while none
   * did. A broker whose only log directory fails stops (Kafka halts it), and its clients see it
   * gone: this says why. Read from the brokers' logs, so only brokers in their own JVMs are seen.
   */
  public java.util.Optional<String> diskFailure() {
    for (Node node : nodes) {
      java.util.Optional<String> said = BrokerLog.diskFailure(node.directory.resolve("broker.log"));
      if (said.isPresent()) {
        return java.util.Optional.of("broker " + node.id + "'s disk is full: " + said.get());
      }
    }
    return java.util.Optional.empty();
  }

  /** How many brokers the cluster has (stopped ones included). */
  public int brokers() {
    return nodes.size();
  }

  /** The port clients connect to for broker {@code index}: its delay proxy's when delayable. */
  public int port(int index) {
    return brokerPorts.get(index);
  }

  /**
   * Stops broker {@code index} (0-based) now, as an operator would (a controlled shutdown), for
   * failure tests. Clients of it see refused connections afterwards. Stopping a stopped broker does
   * nothing.
   */
  public void stopBroker(int index) {
    refuseThroughProxy(index);
    nodes.get(index).stop();
  }

  /**
   * Kills broker {@code index} (0-based) as a crash would: SIGKILL of its JVM, no controlled
   * shutdown, so its partitions' leadership moves only when the controller notices the node is
   * gone. {@link #restartBroker(int)} brings it back. A broker in this JVM cannot be killed without
   * the caller: it is stopped as {@link #stopBroker(int)} does.
   */
  public void killBroker(int index) {
    refuseThroughProxy(index);
    nodes.get(index).kill();
  }

  /**
   * Starts broker {@code index} again after {@link #stopBroker(int)} or {@link #killBroker(int)},
   * on the same ports and with the same log directory (its messages are kept), and returns once it
   * runs; for failure tests that bring a node back. Starting a running broker does nothing.
   *
   * @throws IllegalStateException when the broker does not start, with Kafka's reason
   */
  public void restartBroker(int index) {
    nodes.get(index).restart();
    DelayProxy proxy = proxies.get(index);
    if (proxy != null) {
      proxy.listenAgain();
    }
  }

  /** A stopped broker's delay proxy refuses connections, as the broker's own port would. */
  private void refuseThroughProxy(int index) {
    DelayProxy proxy = proxies.get(index);
    if (proxy != null) {
      proxy.refuse();
    }
  }

  /**
   * Freezes broker {@code index} (SIGSTOP of its JVM), for stall tests: its connections stay open
   * and what clients send it waits, unanswered, until {@link #resumeBroker(int)}. Unlike {@link
   * #stopBroker(int)}, nothing is refused: a client sees a broker that has stopped answering.
   *
   * @throws UnsupportedOperationException when the brokers run in this JVM (freezing it would
   *     freeze the caller): start them with {@link Builder#separateProcess(boolean)}
   */
  public void pauseBroker(int index) {
    nodes.get(index).signal("STOP");
  }

  /** Lets broker {@code index} run again after {@link #pauseBroker(int)} (SIGCONT). */
  public void resumeBroker(int index) {
    nodes.get(index).signal("CONT");
  }

  /**
   * Delays what broker {@code index} sends, to clients and to the other brokers, by {@code delay}
   * from now on (zero ends it): a network delay on the broker's side, as {@code tc netem} on its
   * interface would add, for fault tests ({@code delay broker 2 by 50ms for 10s}).
   *
   * @throws IllegalStateException when the broker was not started {@link Builder#delayable(int)}
   */
  public void delayBroker(int index, Duration delay) {
    DelayProxy proxy = proxies.get(index);
    if (proxy == null) {
      throw new IllegalStateException(
          "broker " + index + " was not started delayable: its clients reach it directly");
    }
    proxy.delay(delay);
  }

  /**
   * Stops every broker and removes their directories. Brokers in JVMs of their own are killed, not
   * shut down: their data is deleted next, and a controlled shutdown of every broker at once waits
   * on a controller quorum that is leaving too (5.8 s for three brokers, 0.3 s for one).
   */
  @Override
  public void close() {
    List<Thread> stoppers = new ArrayList<>();
    for (Node node : nodes) {
      Thread t = new Thread(node::kill, "kafka-stop-" + node.id);
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
    proxies.values().forEach(DelayProxy::close);
    nodes.forEach(n -> StaleServers.delete(n.directory));
  }

  @Override
  public String toString() {
    return "LocalKafka[" + bootstrapServers + "]";
  }

  /** One node: in this JVM or a child process. */
  private abstract static class Node {
    final int id;
    final Path directory;

    Node(int id, Path directory) {
      this.id = id;
      this.directory = directory;
    }

    abstract void stop();

    abstract void restart();

    /** Stops the node at once; where it cannot be killed alone, as {@link #stop()} does. */
    void kill() {
      stop();
    }

    /** Sends the node's JVM signal {@code name} (STOP, CONT). */
    void signal(String name) {
      throw new UnsupportedOperationException(
          "broker "
              + id
              + " runs in this JVM, which SIG"
              + name
              + " would freeze too: start the cluster with separateProcess(true)");
    }
  }

  private static final class InProcessNode extends Node {
    private final Path propertiesFile;
    private final String clusterId;
    private KafkaRaftServer server; // guarded by this

    InProcessNode(int id, Path propertiesFile, String clusterId, KafkaRaftServer server) {
      super(id, propertiesFile.getParent());
      this.propertiesFile = propertiesFile;
      this.clusterId = clusterId;
      this.server = server;
    }

    @Override
    synchronized void restart() {
      if (server != null) {
        return;
      }
      try {
        // the storage is formatted already: startNode keeps it (--ignore-formatted)
        server = KafkaMain.startNode(propertiesFile, clusterId);
      } catch (IOException | RuntimeException e) {
        throw new IllegalStateException(
            "the embedded Kafka broker " + id + " did not restart: " + e.getMessage(), e);
      }
    }

    @Override
    synchronized void stop() {
      if (server != null) {
        server.shutdown();
        server.awaitShutdown();
        server = null;
      }
    }
  }

  private static final class ProcessNode extends Node {
    private final ProcessBuilder command;
    private volatile Process process;

    ProcessNode(int id, Path directory, ProcessBuilder command, Process process) {
      super(id, directory);
      this.command = command;
      this.process = process;
    }

    /** Starts the node's JVM again (its log appended to) and waits until the node runs. */
    @Override
    synchronized void restart() {
      if (process.isAlive()) {
        return;
      }
      try {
        Files.deleteIfExists(directory.resolve(KafkaMain.READY_FILE));
        process =
            command
                .redirectOutput(
                    ProcessBuilder.Redirect.appendTo(directory.resolve("broker.log").toFile()))
                .start();
        Files.writeString(
            directory.resolve("data").resolve(PID_FILE), Long.toString(process.pid()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!Files.exists(directory.resolve(KafkaMain.READY_FILE))) {
          if (!process.isAlive() || System.nanoTime() > deadline) {
            throw new IllegalStateException(
                "the embedded Kafka broker "
                    + id
                    + " did not restart: "
                    + Builder.tail(directory.resolve("broker.log")));
          }
          TimeUnit.MILLISECONDS.sleep(50);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("could not restart the embedded Kafka broker " + id, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while restarting broker " + id, e);
      }
    }

    @Override
    void signal(String name) {
      Signals.send(name, "broker " + id, process.pid());
    }

    @Override
    void kill() {
      try {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    void stop() {
      if (!process.isAlive()) {
        return;
      }
      // SIGTERM: the child's shutdown hook stops Kafka cleanly. Through its handle: Process.destroy
      // also closes the child's standard input, which it takes for its owner's end (a halt).
      process.toHandle().destroy();
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Settings of a cluster to start. Mutable, single use. */
  public static final class Builder {
    private int brokers = 1;
    private boolean separateProcess;
    private String heap = "256m";
    private long diskSize;
    private Duration startTimeout = Duration.ofSeconds(90);
    private final Map<String, String> brokerConfig = new LinkedHashMap<>();
    private final java.util.Set<Integer> delayable = new java.util.TreeSet<>();

    private Builder() {}

    /**
     * Lets {@link LocalKafka#delayBroker} delay broker {@code index} (from 0): it advertises the
     * port of a {@link DelayProxy} in this JVM, in front of its own, so its clients and the other
     * brokers' replication reach it through the proxy. The controllers' traffic goes direct.
     */
    public Builder delayable(int index) {
      delayable.add(index);
      return this;
    }

    /** 1 (default) or 3 brokers; three allow replication factor 3. */
    public Builder brokers(int count) {
      if (count != 1 && count != 3) {
        throw new IllegalArgumentException("an embedded Kafka has 1 or 3 brokers, not " + count);
      }
      this.brokers = count;
      return this;
    }

    /** Runs each broker in its own JVM (default: in this JVM). */
    public Builder separateProcess(boolean separate) {
      this.separateProcess = separate;
      return this;
    }

    /** The heap of each broker JVM ({@code -Xmx}) when they run in separate processes. */
    public Builder heap(String size) {
      this.heap = size;
      return this;
    }

    /** Any broker setting ({@code log.retention.ms}, {@code num.io.threads}...). */
    public Builder brokerConfig(String name, String value) {
      brokerConfig.put(name, value);
      return this;
    }

    /**
     * Puts each broker's log directory on a disk of {@code bytes}: a tmpfs of that size mounted on
     * it where the machine allows it (root), which the broker fills as it would a real disk, its
     * writes then failing with its own storage error; where mounting is refused, a quota of that
     * size that {@link LocalKafka#diskUsePercent()} reports against ({@link BrokerDisk#mounted()}
     * tells which). {@link LocalKafka#close()} unmounts it, and so does the brokers' watchdog when
     * the owning JVM dies. Needs {@link #separateProcess(boolean)}: a broker whose only log
     * directory fails halts its JVM.
     *
     * @param bytes the size of each broker's disk, at least 1 MiB
     */
    public Builder diskSize(long bytes) {
      if (bytes < 1024 * 1024) {
        throw new IllegalArgumentException(
            "an embedded broker's disk is at least 1 MiB (1048576 bytes), not " + bytes);
      }
      this.diskSize = bytes;
      return this;
    }

    /** How long to wait for the cluster to be ready (default 90 s). */
    public Builder startTimeout(Duration timeout) {
      this.startTimeout = timeout;
      return this;
    }

    /**
     * Starts the brokers and waits until all of them are in the cluster.
     *
     * @throws IllegalStateException when the cluster does not come up, with Kafka's reason
     */
    public LocalKafka start() {
      for (int index : delayable) {
        if (index < 0 || index >= brokers) {
          throw new IllegalArgumentException(
              "broker index " + index + " to delay is not one of the " + brokers + " (from 0)");
        }
      }
      if (diskSize > 0 && !separateProcess) {
        throw new IllegalArgumentException(
            "a disk size for the embedded brokers needs separateProcess(true): a broker whose"
                + " log directory fills halts its JVM, which would be this one");
      }
      StaleServers.reap(DIRECTORY_PREFIX, PID_FILE);
      List<Integer> ports = FreePorts.of(2 * brokers);
      List<Integer> brokerPorts = ports.subList(0, brokers);
      List<Integer> controllerPorts = ports.subList(brokers, 2 * brokers);
      String clusterId = Uuid.randomUuid().toString();
      Map<Integer, DelayProxy> proxies = new java.util.HashMap<>();
      List<Integer> advertisedPorts = new ArrayList<>(brokerPorts);
      for (int index : delayable) {
        DelayProxy proxy = DelayProxy.start("127.0.0.1", brokerPorts.get(index));
        proxies.put(index, proxy);
        advertisedPorts.set(index, proxy.port());
      }
      List<Path> propertyFiles = new ArrayList<>();
      List<Path> directories = new ArrayList<>();
      List<BrokerDisk> disks = new ArrayList<>();
      try {
        for (int id = 0; id < brokers; id++) {
          Path directory = StaleServers.newServerDirectory(DIRECTORY_PREFIX);
          Files.createDirectories(directory.resolve("data"));
          directories.add(directory);
          if (diskSize > 0) {
            disks.add(BrokerDisk.of(directory.resolve("data").resolve("logs"), diskSize));
          }
          Properties properties =
              KafkaNodeConfig.of(
                  id,
                  brokerPorts,
                  advertisedPorts,
                  controllerPorts,
                  directory.resolve("data").resolve("logs"),
                  brokerConfig);
          Path file = directory.resolve("server.properties");
          KafkaNodeConfig.write(properties, file);
          propertyFiles.add(file);
        }
      } catch (IOException e) {
        directories.forEach(StaleServers::delete);
        proxies.values().forEach(DelayProxy::close);
        throw new UncheckedIOException("could not prepare the embedded Kafka's directories", e);
      }
      List<Node> nodes = new ArrayList<>();
      LocalKafka kafka =
          new LocalKafka(
              nodes, List.copyOf(advertisedPorts), Map.copyOf(proxies), List.copyOf(disks));
      try {
        nodes.addAll(
            separateProcess
                ? startProcesses(propertyFiles, clusterId)
                : startInProcess(propertyFiles, clusterId));
        awaitCluster(kafka.bootstrapServers(), brokers, startTimeout);
        return kafka;
      } catch (RuntimeException e) {
        kafka.close();
        directories.forEach(StaleServers::delete);
        throw e;
      }
    }

    private List<Node> startInProcess(List<Path> files, String clusterId) {
      // A node's startup waits for the controller quorum: start them all at once.
      ExecutorService starter = Executors.newFixedThreadPool(files.size());
      try {
        List<Future<KafkaRaftServer>> futures = new ArrayList<>();
        for (Path file : files) {
          futures.add(starter.submit(() -> KafkaMain.startNode(file, clusterId)));
        }
        List<Node> nodes = new ArrayList<>();
        for (int id = 0; id < files.size(); id++) {
          try {
            KafkaRaftServer server =
                futures.get(id).get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
            nodes.add(new InProcessNode(id, files.get(id), clusterId, server));
          } catch (Exception e) {
            nodes.forEach(Node::stop);
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException(
                "the embedded Kafka did not start: " + cause.getMessage(), cause);
          }
        }
        return nodes;
      } finally {
        starter.shutdownNow();
      }
    }

    private List<Node> startProcesses(List<Path> files, String clusterId) {
      Path java = Path.of(System.getProperty("java.home"), "bin", "java");
      List<ProcessNode> nodes = new ArrayList<>();
      try {
        for (int id = 0; id < files.size(); id++) {
          Path directory = files.get(id).getParent();
          Path logback = directory.resolve("logback.xml");
          // Kafka at INFO halves its throughput: warnings only, into the node's own log file.
          Files.writeString(
              logback,
              "<configuration><appender name=\"F\" class=\"ch.qos.logback.core.ConsoleAppender\">"
                  + "<encoder><pattern>%d %-5level %logger{30} - %msg%n</pattern></encoder>"
                  + "</appender><root level=\"WARN\"><appender-ref ref=\"F\"/></root>"
                  + "</configuration>");
          List<String> line = new ArrayList<>();
          line.addAll(List.of(java.toString(), "-Xmx" + heap, "-Xms" + heap, "-XX:+UseG1GC"));
          line.addAll(ChildJvm.extraOptions());
          line.addAll(
              List.of(
                  "-Dlogback.configurationFile=" + logback,
                  "-cp",
                  System.getProperty("java.class.path"),
                  KafkaMain.class.getName(),
                  files.get(id).toString(),
                  clusterId));
          ProcessBuilder command =
              new ProcessBuilder(line)
                  .redirectErrorStream(true)
                  .redirectOutput(directory.resolve("broker.log").toFile());
          Process process = command.start();
          Files.writeString(
              directory.resolve("data").resolve(PID_FILE), Long.toString(process.pid()));
          nodes.add(new ProcessNode(id, directory, command, process));
        }
        long deadline = System.nanoTime() + startTimeout.toNanos();
        for (ProcessNode node : nodes) {
          while (!Files.exists(node.directory.resolve(KafkaMain.READY_FILE))) {
            if (!node.process.isAlive()) {
              throw new IllegalStateException(
                  "the embedded Kafka broker "
                      + node.id
                      + " exited: "
                      + tail(node.directory.resolve("broker.log")));
            }
            if (System.nanoTime() > deadline) {
              throw new IllegalStateException(
                  "the embedded Kafka broker "
                      + node.id
                      + " did not start within "
                      + startTimeout.toSeconds()
                      + " s: "
                      + tail(node.directory.resolve("broker.log")));
            }
            TimeUnit.MILLISECONDS.sleep(50);
          }
        }
        return List.copyOf(nodes);
      } catch (IOException | InterruptedException | RuntimeException e) {
        nodes.forEach(Node::stop);
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        throw e instanceof RuntimeException r
            ? r
            : new IllegalStateException("could not start the embedded Kafka: " + e, e);
      }
    }

    private static String tail(Path log) {
      try {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
      } catch (IOException e) {
        return "(no log)";
      }
    }

    private static void awaitCluster(String bootstrap, int brokers, Duration timeout) {
      Properties admin = new Properties();
      admin.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      long deadline = System.nanoTime() + timeout.toNanos();
      try (Admin client = Admin.create(admin)) {
        while (true) {
          try {
            int seen = client.describeCluster().nodes().get(5, TimeUnit.SECONDS).size();
            if (seen == brokers) {
              return;
            }
          } catch (Exception notYet) {
            // keep waiting until the deadline
          }
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException(
                "the embedded Kafka at " + bootstrap + " did not show " + brokers + " brokers");
          }
          TimeUnit.MILLISECONDS.sleep(100);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the embedded Kafka", e);
      }
    }
  }
}
