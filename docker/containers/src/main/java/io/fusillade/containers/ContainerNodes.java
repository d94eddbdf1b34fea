package io.fusillade.containers;

import com.github.dockerjava.api.DockerClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;

/**
 * The containers of one server as its nodes, numbered from 1 as scheduled faults name them ({@code
 * kill broker 2}), and what a fault does to a node through the engine: {@code docker pause} and
 * {@code unpause}, {@code docker kill} (SIGKILL, a crash), {@code docker start} of a killed node
 * with its data, waiting until it serves again. Each node publishes its ports on host ports fixed
 * before it started, so a restarted node is where its clients left it.
 *
 * <p>{@link #close} removes every node, a paused one included, then the server's network, and
 * throws the first failure only after trying them all: no container or network is left behind.
 */
final class ContainerNodes {
  private static final Duration RESTART = Duration.ofMinutes(2);

  private final String kind;
  private final List<GenericContainer<?>> containers;
  private final Network network;
  private final Set<Integer> paused = new HashSet<>();

  /**
   * @param kind what a node is, for messages ({@code "Kafka broker"})
   */
  ContainerNodes(String kind, List<GenericContainer<?>> containers, Network network) {
    this.kind = kind;
    this.containers = List.copyOf(containers);
    this.network = network;
  }

  int size() {
    return containers.size();
  }

  /** Node {@code node}, from 1. */
  GenericContainer<?> node(int node) {
    if (node < 1 || node > containers.size()) {
      throw new IllegalArgumentException(
          "no " + kind + " " + node + ": they are numbered 1 to " + containers.size());
    }
    return containers.get(node - 1);
  }

  List<GenericContainer<?>> all() {
    return containers;
  }

  /** Freezes every process of the node ({@code docker pause}): its connections stay open. */
  synchronized void pause(int node) {
    client().pauseContainerCmd(node(node).getContainerId()).exec();
    paused.add(node);
  }

  /** Lets a paused node run again ({@code docker unpause}). */
  synchronized void resume(int node) {
    client().unpauseContainerCmd(node(node).getContainerId()).exec();
    paused.remove(node);
  }

  /** Kills the node's processes as a crash would ({@code docker kill}, SIGKILL). */
  synchronized void kill(int node) {
    String id = node(node).getContainerId();
    if (paused.remove(node)) {
      client().unpauseContainerCmd(id).exec(); // the engine kills no paused container
    }
    client().killContainerCmd(id).exec();
  }

  /**
   * Starts a killed node again ({@code docker start}) with its data, and returns once {@code ready}
   * holds for it.
   *
   * @throws IllegalStateException when it does not serve within two minutes, with its log's end
   */
  void restart(int node, Predicate<GenericContainer<?>> ready) {
    GenericContainer<?> container = node(node);
    client().startContainerCmd(container.getContainerId()).exec();
    long deadline = System.nanoTime() + RESTART.toNanos();
    while (!ready.test(container)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            kind
                + " "
                + node
                + " did not serve again within "
                + RESTART.toSeconds()
                + " s: "
                + tail(container));
      }
      try {
        TimeUnit.MILLISECONDS.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while restarting " + kind + " " + node, e);
      }
    }
  }

  /**
   * A readiness test for {@link #restart}: the node's log holds {@code line} (a regular expression)
   * once more than when it is taken, before the start.
   */
  static Predicate<GenericContainer<?>> logsOnceMore(GenericContainer<?> container, String line) {
    Pattern pattern = Pattern.compile(line);
    long before = count(container, pattern);
    return c -> count(c, pattern) > before;
  }

  private static long count(GenericContainer<?> container, Pattern line) {
    return container.getLogs().lines().filter(l -> line.matcher(l).find()).count();
  }

  /** Removes every node and the network; the first failure is thrown after all were tried. */
  synchronized void close() {
    RuntimeException first = null;
    for (int node = containers.size(); node >= 1; node--) {
      try {
        if (paused.remove(node)) {
          client().unpauseContainerCmd(node(node).getContainerId()).exec();
        }
      } catch (RuntimeException e) {
        // gone already: stop() below removes what is left
      }
      try {
        containers.get(node - 1).stop();
      } catch (RuntimeException e) {
        first = add(first, e);
      }
    }
    try {
      if (network != null) {
        network.close();
      }
    } catch (RuntimeException e) {
      first = add(first, e);
    }
    if (first != null) {
      throw first;
    }
  }

  /** Stops what was started of a server that failed to start, and rethrows that failure. */
  static RuntimeException abandon(
      RuntimeException failure, List<GenericContainer<?>> started, Network network) {
    try {
      new ContainerNodes("node", started, network).close();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
    return failure;
  }

  private static RuntimeException add(RuntimeException first, RuntimeException next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }

  private static String tail(GenericContainer<?> container) {
    List<String> lines = new ArrayList<>(container.getLogs().lines().toList());
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
  }

  private static DockerClient client() {
    return DockerClientFactory.lazyClient();
  }
}
