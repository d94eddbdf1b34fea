package io.fusillade.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;

/** The {@code server.properties} of one combined (broker and controller) KRaft node. */
final class KafkaNodeConfig {
  private KafkaNodeConfig() {}

  /**
   * The settings of node {@code id} of {@code brokerPorts.size()} nodes.
   *
   * @param advertisedPorts the port each node's clients and the other nodes connect to: its own, or
   *     that of a delay proxy in front of it
   * @param overrides settings given by the user, applied last
   */
  static Properties of(
      int id,
      List<Integer> brokerPorts,
      List<Integer> advertisedPorts,
      List<Integer> controllerPorts,
      Path logDirectory,
      Map<String, String> overrides) {
    int nodes = brokerPorts.size();
    StringJoiner voters = new StringJoiner(",");
    for (int i = 0; i < nodes; i++) {
      voters.add(i + "@127.0.0.1:" + controllerPorts.get(i));
    }
    Properties p = new Properties();
    p.setProperty("process.roles", "broker,controller");
    p.setProperty("node.id", Integer.toString(id));
    p.setProperty("controller.quorum.voters", voters.toString());
    p.setProperty(
        "listeners",
        "PLAINTEXT://127.0.0.1:"
            + brokerPorts.get(id)
            + ",CONTROLLER://127.0.0.1:"
            + controllerPorts.get(id));
    p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + advertisedPorts.get(id));
    p.setProperty("controller.listener.names", "CONTROLLER");
    p.setProperty("inter.broker.listener.name", "PLAINTEXT");
    p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.setProperty("log.dirs", logDirectory.toString());
    String replicas = Integer.toString(Math.min(3, nodes));
    p.setProperty("offsets.topic.replication.factor", replicas);
    // Few internal partitions: 50 of them take seconds to create on a small machine.
    p.setProperty("offsets.topic.num.partitions", "5");
    p.setProperty("transaction.state.log.replication.factor", replicas);
    p.setProperty("transaction.state.log.min.isr", "1");
    p.setProperty("transaction.state.log.num.partitions", "5");
    p.setProperty("share.coordinator.state.topic.replication.factor", replicas);
    p.setProperty("share.coordinator.state.topic.min.isr", "1");
    p.setProperty("group.initial.rebalance.delay.ms", "0");
    p.setProperty("log.cleaner.dedupe.buffer.size", Integer.toString(4 * 1024 * 1024));
    // Fusillade creates its topics itself, with the partitions the test asks for.
    p.setProperty("auto.create.topics.enable", "false");
    p.setProperty("num.partitions", "1");
    // Retention acts within a short run (the defaults start checking 30 s after the start, then
    // every 5 minutes, and keep deleted segments a minute more): a topic's retention.bytes then
    // bounds what its log dir holds.
    p.setProperty("log.initial.task.delay.ms", "1000");
    p.setProperty("log.retention.check.interval.ms", "5000");
    p.setProperty("log.segment.delete.delay.ms", "1000");
    overrides.forEach(p::setProperty);
    return p;
  }

  static void write(Properties properties, Path file) {
    try (Writer out = Files.newBufferedWriter(file)) {
      properties.store(out, "Fusillade embedded Kafka node");
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + file, e);
    }
  }
}
