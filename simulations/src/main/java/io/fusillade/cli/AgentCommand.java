package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.system.NodeAgent;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fusillade agent}: serves this host's CPU (with steal), memory, disk, network and
 * filesystem use in Prometheus text format, under {@code node_exporter}'s names, for a server under
 * test where no exporter runs. Runs until stopped.
 */
@Command(
    name = "agent",
    mixinStandardHelpOptions = true,
    description = {
      "Serves this host's metrics (CPU, memory, disk) to runs.",
      "It runs until stopped (Ctrl-C).",
      "Run it on a server under test that has no node_exporter; the run names it with",
      "--monitor NAME=http://HOST:PORT/metrics (or a monitor: entry in the workload) and records",
      "server.NAME.cpu.steal, memory, disk, network and filesystem use second by second.",
      "The metrics are /proc's, in node_exporter's names: either one serves a run alike."
    })
final class AgentCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "The port to listen on (default ${DEFAULT-VALUE}; 0 takes a free one).")
  int port = NodeAgent.DEFAULT_PORT;

  @Option(
      names = "--bind",
      paramLabel = "ADDRESS",
      description = "The address to listen on (default ${DEFAULT-VALUE}: every interface).")
  String bind = "0.0.0.0";

  @Option(
      names = "--filesystem",
      paramLabel = "PATH",
      description =
          "A mount point whose size and use are served, e.g. the database's data directory"
              + " (repeatable; default /).")
  List<Path> filesystems = new ArrayList<>();

  /** Counted down when the agent is to stop: by the shutdown hook, or by a test. */
  final CountDownLatch stopped = new CountDownLatch(1);

  @Override
  public Integer call() throws Exception {
    if (port < 0 || port > 65535) {
      throw new FusilladeException("--port must be 0-65535, got " + port);
    }
    List<Path> paths = filesystems.isEmpty() ? List.of(Path.of("/")) : filesystems;
    for (Path p : paths) {
      if (!Files.exists(p)) {
        throw new FusilladeException("--filesystem: no such file or directory: " + p);
      }
    }
    NodeAgent agent;
    try {
      agent = NodeAgent.start(new InetSocketAddress(bind, port), paths);
    } catch (IOException e) {
      throw new FusilladeException("cannot listen on " + bind + ":" + port + ": " + e.getMessage());
    }
    Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "fusillade-agent-stop"));
    spec.commandLine()
        .getOut()
        .println(
            "Fusillade agent: serving http://"
                + (bind.equals("0.0.0.0") ? "HOST" : bind)
                + ":"
                + agent.port()
                + "/metrics (filesystems: "
                + String.join(", ", paths.stream().map(Path::toString).toList())
                + "); Ctrl-C stops it");
    spec.commandLine().getOut().flush();
    try {
      stopped.await();
    } finally {
      agent.close();
    }
    return 0;
  }
}
