package io.fusillade.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One process of a {@link LocalSeqDb}: the single node, the ingestor or a store. Its command line
 * is fixed at start, so that a restart after a kill comes back on the same ports with the same
 * data. Ready when its debug address answers {@code GET /ready} with 200.
 */
final class SeqDbProcess {
  /** The process's pid, in its {@code data} directory: what the stale-server reaper stops. */
  static final String PID_FILE = "seqdb.pid";

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final String name;
  private final Path directory;
  private final ProcessBuilder command;
  private final int debugPort;
  private Process process; // guarded by this

  private SeqDbProcess(String name, Path directory, ProcessBuilder command, int debugPort) {
    this.name = name;
    this.directory = directory;
    this.command = command;
    this.debugPort = debugPort;
  }

  /**
   * Starts a process, without waiting for it: {@link #awaitReady} does.
   *
   * @param name how messages name it ({@code seq-db store 2})
   * @param directory its own directory: its log, and {@code data/} with its pid file
   * @param line the command line
   * @param debugPort the port of its {@code --debug-addr}
   */
  static SeqDbProcess start(String name, Path directory, List<String> line, int debugPort)
      throws IOException {
    Files.createDirectories(directory.resolve("data"));
    ProcessBuilder command = new ProcessBuilder(line).redirectErrorStream(true);
    SeqDbProcess node = new SeqDbProcess(name, directory, command, debugPort);
    node.launch();
    return node;
  }

  private synchronized void launch() throws IOException {
    process =
        command
            .redirectOutput(
                ProcessBuilder.Redirect.appendTo(directory.resolve("node.log").toFile()))
            .start();
    Files.writeString(directory.resolve("data").resolve(PID_FILE), Long.toString(process.pid()));
  }

  /**
   * Waits until the process says it is ready.
   *
   * @throws IllegalStateException when it exits or is not ready in time, with its log's end
   */
  void awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    HttpRequest ready =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + debugPort + "/ready"))
            .timeout(Duration.ofSeconds(2))
            .build();
    try {
      while (true) {
        Process current = current();
        if (!current.isAlive()) {
          throw new IllegalStateException(name + " exited: " + tail());
        }
        try {
          if (HTTP.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            return;
          }
        } catch (IOException notYet) {
          // not listening yet
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              name + " was not ready within " + timeout.toSeconds() + " s: " + tail());
        }
        TimeUnit.MILLISECONDS.sleep(20);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting " + name, e);
    }
  }

  synchronized boolean isAlive() {
    return process.isAlive();
  }

  synchronized long pid() {
    return process.pid();
  }

  private synchronized Process current() {
    return process;
  }

  /** SIGKILL, as a crash (after a SIGCONT, should it be frozen: a stopped process dies anyway). */
  void kill() {
    try {
      current().destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Starts the process again, on its ports and with its data (its log appended to). */
  void restart() {
    if (isAlive()) {
      throw new IllegalStateException(name + " is running");
    }
    try {
      launch();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start " + name, e);
    }
  }

  /**
   * Sends the process signal {@code signal} (STOP, CONT).
   *
   * @throws IllegalStateException when it is not running (its pid may be another's by now)
   */
  void signal(String signal) {
    Process current = current();
    if (!current.isAlive()) {
      throw new IllegalStateException(name + " is not running");
    }
    Signals.send(signal, name, current.pid());
  }

  /** SIGTERM (after a SIGCONT, should it be frozen), and SIGKILL if it does not end in 10 s. */
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
    current.destroy();
    try {
      if (!current.waitFor(10, TimeUnit.SECONDS)) {
        current.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      current.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** The last lines of its log. */
  String tail() {
    try {
      List<String> lines = Files.readAllLines(directory.resolve("node.log"));
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
    } catch (IOException e) {
      return "(no log)";
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
