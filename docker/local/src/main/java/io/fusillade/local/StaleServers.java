package io.fusillade.local;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds servers left running by a JVM that was killed ({@code kill -9} runs no shutdown hook, and
 * PostgreSQL does not notice its parent's death) and stops them.
 *
 * <p>Each server lives in its own directory under the temporary directory, with an {@value #OWNER}
 * file holding the pid of the JVM that started it, and an {@link OwnerWatch} that stops the server
 * when that JVM ends. Before a new server starts, every such directory whose owner is gone (what no
 * watchdog stopped) has its server stopped and is deleted.
 */
final class StaleServers {
  private static final Logger LOG = LoggerFactory.getLogger(StaleServers.class);
  static final String OWNER = "owner.pid";

  /** How long a stale server gets to stop on SIGTERM before it is killed. */
  static final Duration DEFAULT_GRACE = Duration.ofSeconds(10);

  /**
   * The embedded servers' directory prefixes and the pid file each keeps under its {@code data}
   * directory, or under each node's ({@code node-1/data/opensearch.pid}: OpenSearch nodes in JVMs
   * of their own; in the injector's JVM, none).
   */
  static final Map<String, String> KINDS =
      Map.of(
          "fusillade-pg-", "postmaster.pid",
          "fusillade-kafka-", "kafka.pid",
          "fusillade-os-", "opensearch.pid",
          "fusillade-seqdb-", "seqdb.pid");

  private StaleServers() {}

  /** The watchdogs of the server directories this JVM made and has not deleted yet. */
  private static final Map<Path, OwnerWatch> WATCHES = new ConcurrentHashMap<>();

  /**
   * Creates a server directory owned by this JVM, with its {@link OwnerWatch}: should this JVM die
   * in any way, the servers that name the directory are stopped and the directory removed at once.
   */
  static Path newServerDirectory(String prefix) throws IOException {
    Path directory = Files.createTempDirectory(prefix);
    Files.writeString(directory.resolve(OWNER), Long.toString(ProcessHandle.current().pid()));
    OwnerWatch.Stop stop =
        prefix.startsWith("fusillade-pg") ? OwnerWatch.Stop.QUIT : OwnerWatch.Stop.KILL;
    WATCHES.put(directory, OwnerWatch.start(directory, stop, true));
    return directory;
  }

  /** Stops and removes the servers under the temporary directory whose owning JVM is gone. */
  static void reap(String prefix, String pidFile) {
    reap(prefix, pidFile, DEFAULT_GRACE);
  }

  /**
   * Stops and removes the servers under the temporary directory whose owning JVM is gone, giving
   * each {@code grace} to stop on SIGTERM before it is killed.
   *
   * @return the directories removed
   */
  static List<Path> reap(String prefix, String pidFile, Duration grace) {
    List<Path> removed = new ArrayList<>();
    Path temp = Path.of(System.getProperty("java.io.tmpdir"));
    try (DirectoryStream<Path> candidates = Files.newDirectoryStream(temp, prefix + "*")) {
      for (Path directory : candidates) {
        Optional<Long> owner = readPid(directory.resolve(OWNER));
        if (owner.isEmpty() || isAlive(owner.get())) {
          continue;
        }
        serverPids(directory, pidFile).forEach(pid -> stop(pid, grace));
        delete(directory);
        removed.add(directory);
        LOG.info("Removed a server left behind by a killed run: {}", directory);
      }
    } catch (IOException e) {
      LOG.debug("Could not look for stale servers in {}: {}", temp, e.toString());
    }
    return removed;
  }

  /** The pids in {@code data/PIDFILE} and in each node's {@code NODE/data/PIDFILE}. */
  private static List<Long> serverPids(Path directory, String pidFile) {
    List<Long> pids = new ArrayList<>();
    readPid(directory.resolve("data").resolve(pidFile)).ifPresent(pids::add);
    try (DirectoryStream<Path> nodes = Files.newDirectoryStream(directory, Files::isDirectory)) {
      for (Path node : nodes) {
        readPid(node.resolve("data").resolve(pidFile)).ifPresent(pids::add);
      }
    } catch (IOException e) {
      LOG.debug("Could not list {}: {}", directory, e.toString());
    }
    return pids;
  }

  private static void stop(long pid, Duration grace) {
    ProcessHandle.of(pid)
        .filter(ProcessHandle::isAlive)
        .ifPresent(
            process -> {
              try {
                // a server a fault paused would take SIGTERM only when let go
                Signals.send("CONT", "a stale server", pid);
              } catch (RuntimeException e) {
                LOG.debug("Could not send SIGCONT to {}: {}", pid, e.getMessage());
              }
              process.destroy(); // SIGTERM: PostgreSQL's smart shutdown, its clients are gone
              try {
                process.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
              } catch (Exception notYet) {
                process.destroyForcibly();
              }
            });
  }

  private static boolean isAlive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  private static Optional<Long> readPid(Path file) {
    try {
      List<String> lines = Files.readAllLines(file);
      return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).strip()));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * Deletes a directory and what it holds, its {@link #OWNER} file last: a directory that a closing
   * server wrote into meanwhile keeps its owner, so a later reap finds it again. A server directory
   * of this JVM's then has its watchdog ended, which removes what a closing server wrote meanwhile.
   */
  static void delete(Path directory) {
    try {
      Mounts.unmountUnder(directory); // a small disk of the server's (a disk test): its files go
      deleteFiles(directory);
    } finally {
      OwnerWatch watch = WATCHES.remove(directory);
      if (watch != null) {
        watch.close();
      }
    }
  }

  private static void deleteFiles(Path directory) {
    Path owner = directory.resolve(OWNER);
    try (Stream<Path> files = Files.walk(directory)) {
      files
          .sorted(Comparator.reverseOrder())
          .filter(p -> !p.equals(owner) && !p.equals(directory))
          .forEach(p -> p.toFile().delete());
    } catch (IOException | java.io.UncheckedIOException e) {
      // gone meanwhile (its watchdog removes it too), or unreadable
      LOG.debug("Could not delete {}: {}", directory, e.toString());
    }
    try (Stream<Path> left = Files.list(directory)) {
      if (!left.allMatch(owner::equals)) {
        return; // written meanwhile: left, with its owner, for the next reap
      }
    } catch (IOException e) {
      return; // gone already, or unreadable
    }
    owner.toFile().delete();
    directory.toFile().delete();
  }
}
