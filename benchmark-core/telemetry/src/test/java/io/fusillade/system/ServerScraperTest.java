package io.fusillade.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunRecorder;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Server metrics recorded beside the requests, from {@code fusillade agent} and from a real {@code
 * node_exporter} built from its sources ({@code .ci/run} builds it and names it in {@value
 * #NODE_EXPORTER}).
 */
class ServerScraperTest {
  /** The environment variable holding the path of a node_exporter binary. */
  static final String NODE_EXPORTER = "FUSILLADE_NODE_EXPORTER";

  @TempDir Path dir;

  private RunRecord record(List<ServerTarget> targets, long millis) throws Exception {
    RunRecorder run =
        RunRecorder.open(
            RunOptions.of("servers")
                .withBaseDirectory(dir)
                .withFlushInterval(Duration.ofMillis(500)));
    ServerScraper.install(run, targets);
    Thread.sleep(millis);
    run.close();
    return RunRecordReader.read(run.directory());
  }

  private static double max(double[] values) {
    return Arrays.stream(values).filter(Double::isFinite).max().orElse(Double.NaN);
  }

  @Test
  void theAgentsMachineMetricsAreRecordedSecondBySecond() throws Exception {
    assumeTrue(Files.isReadable(Path.of("/proc/stat")), "needs /proc");
    try (NodeAgent agent = NodeAgent.start(new InetSocketAddress("127.0.0.1", 0), List.of(dir))) {
      RunRecord record =
          record(List.of(ServerTarget.of("db", agent.url()).filesystem(dir.toString())), 3_500);
      assertThat(record.gaugeNames())
          .contains(
              "server.db.cpu.user",
              "server.db.cpu.steal",
              "server.db.cpu.idle",
              "server.db.memory.used",
              "server.db.net.lo.rx",
              "server.db.filesystem.used",
              "server.db.filesystem.use");
      double[] idle = record.gauge("server.db.cpu.idle");
      assertThat(max(idle)).isBetween(0.0, 100.0);
      double total = Files.getFileStore(dir).getTotalSpace();
      assertThat(max(record.gauge("server.db.filesystem.used"))).isBetween(1.0, total);
      assertThat(max(record.gauge("server.db.memory.used"))).isGreaterThan(1e6);
      @SuppressWarnings("unchecked")
      Map<String, Map<String, Object>> health =
          (Map<String, Map<String, Object>>)
              record.manifest().health().get(ServerScraper.HEALTH_KEY);
      assertThat(health.get("db"))
          .containsEntry("exporter", "node")
          .containsEntry("failed", 0)
          .containsEntry("url", agent.url());
      assertThat((Integer) health.get("db").get("answered")).isGreaterThanOrEqualTo(3);
      assertThat(record.manifest().flags()).noneMatch(w -> w.contains("server metrics"));
    }
  }

  @Test
  void aServerThatNeverAnswersFlagsTheRunWithoutItsPassword() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    RunRecord record =
        record(
            List.of(ServerTarget.of("gone", "http://admin:hunter2@127.0.0.1:" + port + "/metrics")),
            2_200);
    assertThat(record.gaugeNames()).noneMatch(g -> g.startsWith("server."));
    assertThat(record.manifest().flags())
        .anySatisfy(
            w ->
                assertThat(w)
                    .contains("server metrics of gone (http://127.0.0.1:" + port + "/metrics)")
                    .contains("connection refused")
                    .doesNotContain("hunter2"));
    assertThat(Files.readString(record.directory().resolve("run.json"))).doesNotContain("hunter2");
  }

  @Test
  void aRealNodeExporterBuiltFromItsSourcesIsRecordedAlike() throws Exception {
    String binary = System.getenv(NODE_EXPORTER);
    if (binary == null || binary.isBlank()) {
      // CI builds it (.ci/run): there a missing binary is a failure, not a skip
      assertThat(System.getenv("CI")).as(NODE_EXPORTER + " must be set in CI").isNull();
      assumeTrue(false, NODE_EXPORTER + " not set: node_exporter not built here");
    }
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Process exporter =
        new ProcessBuilder(
                binary,
                "--web.listen-address=127.0.0.1:" + port,
                // only the collectors read here: a quiet, fast exporter
                "--collector.disable-defaults",
                "--collector.cpu",
                "--collector.meminfo",
                "--collector.loadavg",
                "--collector.diskstats",
                "--collector.netdev",
                "--collector.filesystem")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("node_exporter.log").toFile())
            .start();
    try {
      String url = "http://127.0.0.1:" + port + "/metrics";
      waitForPort(port, exporter);
      RunRecord record = record(List.of(ServerTarget.of("node", url)), 3_500);
      assertThat(record.gaugeNames())
          .contains(
              "server.node.cpu.user",
              "server.node.cpu.steal",
              "server.node.memory.available",
              "server.node.net.lo.tx",
              "server.node.filesystem.use");
      double[] user = record.gauge("server.node.cpu.user");
      double[] idle = record.gauge("server.node.cpu.idle");
      assertThat(max(user)).isBetween(0.0, 100.0);
      assertThat(max(idle)).isBetween(0.0, 100.0);
      assertThat(max(record.gauge("server.node.filesystem.use"))).isBetween(0.0, 100.0);
    } finally {
      exporter.destroy();
      exporter.waitFor(5, TimeUnit.SECONDS);
    }
  }

  private static void waitForPort(int port, Process process) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < end) {
      assertThat(process.isAlive()).as("node_exporter exited").isTrue();
      try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
        return;
      } catch (java.io.IOException notYet) {
        Thread.sleep(100);
      }
    }
    throw new AssertionError("node_exporter did not listen on " + port);
  }
}
