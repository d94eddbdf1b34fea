package io.fusillade.local;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.utils.Time;

/**
 * Runs one embedded Kafka node in this JVM. Two uses:
 *
 * <ul>
 *   <li>{@code KafkaMain <server.properties> <cluster id>}: the child process of a {@link
 *       LocalKafka} started with {@link LocalKafka.Builder#separateProcess(boolean)}. It writes
 *       {@code ready} next to the properties file once the node runs, and ends the moment its owner
 *       JVM does (even after a {@code kill -9}), from its first instant: its standard input is a
 *       pipe from the owner ({@link ChildJvm#exitWhenParentEnds()}).
 *   <li>{@code KafkaMain --standalone}: one broker on a free port, for scripts; prints {@code
 *       bootstrap.servers=127.0.0.1:PORT} and runs until its standard input closes or it gets
 *       SIGTERM.
 * </ul>
 *
 * <p>A child node ignores SIGINT: Ctrl-C in a terminal reaches every process of the group, and the
 * run that uses the node must stop first; its owner stops it with SIGTERM.
 */
public final class KafkaMain {
  static final String READY_FILE = "ready";

  private KafkaMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && args[0].equals("--standalone")) {
      standalone();
      return;
    }
    if (args.length != 2) {
      System.err.println(
          "usage: KafkaMain <server.properties> <cluster id> | KafkaMain --standalone");
      System.exit(2);
    }
    // Before anything else: a broker whose owner dies while it formats or waits for its quorum
    // must not live on for the tens of seconds that takes.
    ChildJvm.exitWhenParentEnds();
    Path properties = Path.of(args[0]);
    // A terminal's Ctrl-C signals the whole process group, this node included: its owner stops
    // it (SIGTERM) once the run it serves has stopped, not while that run's clients still use it.
    try {
      sun.misc.Signal.handle(new sun.misc.Signal("INT"), sun.misc.SignalHandler.SIG_IGN);
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      // the JVM keeps SIGINT: Ctrl-C stops the node at once, as before
    }
    KafkaRaftServer server;
    try {
      server = startNode(properties, args[1]);
    } catch (Exception e) {
      // The threads the broker started before it failed (its port taken, say) would keep this
      // JVM alive, and its owner waiting 90 s for a readiness that never comes (CI,
      // 2026-12-03): end now, the cause in the log the owner shows.
      e.printStackTrace();
      System.exit(1);
      return;
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.shutdown();
                  server.awaitShutdown();
                },
                "kafka-node-shutdown"));
    Files.writeString(properties.resolveSibling(READY_FILE), "ready");
    // Until a signal (the owner's SIGTERM) or the owner's end (exitWhenParentEnds) ends the JVM.
    Thread.currentThread().join();
  }

  private static void standalone() throws Exception {
    try (LocalKafka kafka = LocalKafka.builder().brokers(1).start()) {
      System.out.println("bootstrap.servers=" + kafka.bootstrapServers());
      System.out.flush();
      Thread closer =
          new Thread(
              () -> {
                try {
                  InputStream in = System.in;
                  while (in.read() >= 0) {
                    // wait for the end of input
                  }
                } catch (IOException ignored) {
                  // treat as closed
                }
              });
      closer.setDaemon(true);
      closer.start();
      Runtime.getRuntime().addShutdownHook(new Thread(kafka::close, "kafka-standalone-shutdown"));
      closer.join();
    }
  }

  /** Formats the node's storage if needed and starts it; returns once it runs. */
  static KafkaRaftServer startNode(Path propertiesFile, String clusterId) throws IOException {
    ByteArrayOutputStream formatOutput = new ByteArrayOutputStream();
    int formatted;
    try (PrintStream out = new PrintStream(formatOutput, true, StandardCharsets.UTF_8)) {
      formatted =
          StorageTool.execute(
              new String[] {
                "format", "-t", clusterId, "-c", propertiesFile.toString(), "--ignore-formatted"
              },
              out);
    }
    if (formatted != 0) {
      throw new IllegalStateException(
          "could not format the Kafka storage: " + formatOutput.toString(StandardCharsets.UTF_8));
    }
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(propertiesFile)) {
      properties.load(in);
    }
    KafkaRaftServer server =
        new KafkaRaftServer(KafkaConfig.fromProps(properties, false), Time.SYSTEM);
    server.startup();
    return server;
  }
}
