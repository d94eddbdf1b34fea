package io.fusillade.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One node of a {@link LocalOpenSearch} in a JVM of its own ({@link OpenSearchMain}). */
final class OpenSearchProcess {
  /** The node JVM's pid, in its {@code data} directory: what the stale-server reaper stops. */
  static final String PID_FILE = "opensearch.pid";

  private final int index;
  private final Path directory;
  private final ProcessBuilder command;
  private Process process; // guarded by this

  private OpenSearchProcess(int index, Path directory, ProcessBuilder command) {
    this.index = index;
    this.directory = directory;
    this.command = command;
  }

  /**
   * Starts node {@code index} of a cluster in its own JVM, without waiting for it: {@link
   * #awaitReady} does.
   */
  static OpenSearchProcess start(
      int index,
      String httpPorts,
      String transportPorts,
      String cluster,
      Path directory,
      String heap)
      throws IOException {
    Files.createDirectories(directory);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> line = new ArrayList<>();
    line.addAll(List.of(java.toString(), "-Xmx" + heap, "-Xms" + heap, "-XX:+UseG1GC"));
    line.addAll(ChildJvm.extraOptions());
    line.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            OpenSearchMain.class.getName(),
            Integer.toString(index),
            httpPorts,
            transportPorts,
            cluster,
            directory.toString()));
    ProcessBuilder command = new ProcessBuilder(line).redirectErrorStream(true);
    OpenSearchProcess node = new OpenSearchProcess(index, directory, command);
    node.launch();
    return node;
  }

  private synchronized void launch() throws IOException {
    Files.deleteIfExists(directory.resolve(OpenSearchMain.READY_FILE));
    process =
        command
            .redirectOutput(
                ProcessBuilder.Redirect.appendTo(directory.resolve("node.log").toFile()))
            .start();
    Path data = Files.createDirectories(directory.resolve("data"));
    Files.writeString(data.resolve(PID_FILE), Long.toString(process.pid()));
  }

  /**
   * Waits until the node serves HTTP.
   *
   * @throws IllegalStateException when it exits or does not start in time, with its log's end
   */
  void awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (!Files.exists(directory.resolve(OpenSearchMain.READY_FILE))) {
        Process current = current();
        if (!current.isAlive()) {
          throw new IllegalStateException("OpenSearch node " + (index + 1) + " exited: " + tail());
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "OpenSearch node "
                  + (index + 1)
                  + " did not start within "
                  + timeout.toSeconds()
                  + " s: "
                  + tail());
        }
        TimeUnit.MILLISECONDS.sleep(50);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "interrupted while starting OpenSearch node " + (index + 1), e);
    }
  }

  synchronized long pid() {
    return process.pid();
  }

  synchronized boolean isAlive() {
    return process.isAlive();
  }

  private synchronized Process current() {
    return process;
  }

  /** SIGKILL, as a crash: no goodbye to the cluster. */
  void kill() {
    try {
      current().destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Starts the node's JVM again, on its ports and with its data (its log appended to). */
  void restart() {
    if (isAlive()) {
      throw new IllegalStateException("OpenSearch node " + (index + 1) + " is running");
    }
    try {
      launch();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start OpenSearch node " + (index + 1), e);
    }
  }

  /**
   * Sends the node's JVM signal {@code name} (STOP, CONT).
   *
   * @throws IllegalStateException when the node is not running (its pid may be another's by now)
   */
  void signal(String name) {
    Process current = current();
    if (!current.isAlive()) {
      throw new IllegalStateException("OpenSearch node " + (index + 1) + " is not running");
    }
    Signals.send(name, "OpenSearch node " + (index + 1), current.pid());
  }

  /** SIGTERM (after a SIGCONT, should it be frozen), and SIGKILL if it does not end in 30 s. */
  void stop() {
    Process current = current();
    if (!current.isAlive()) {
      return;
    }
    try {
      signal("CONT");
    } catch (RuntimeException e) {
      // it has just ended
    }
    // SIGTERM through the handle: Process.destroy also closes the node's standard input, which it
    // takes for its owner's end (a halt, not a clean close)
    current.toHandle().destroy();
    try {
      if (!current.waitFor(30, TimeUnit.SECONDS)) {
        current.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      current.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private String tail() {
    try {
      List<String> lines = Files.readAllLines(directory.resolve("node.log"));
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    } catch (IOException e) {
      return "(no log)";
    }
  }
}
