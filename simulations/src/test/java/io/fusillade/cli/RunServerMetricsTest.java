package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.system.NodeAgent;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The servers' side of a run: {@code fusillade agent} serves a host's metrics, and {@code fusillade
 * run} records them (and a real {@code node_exporter}'s, where {@code .ci/run} built one) beside
 * the requests against the embedded PostgreSQL, draws them in the report and checks them.
 */
class RunServerMetricsTest {
  @TempDir Path dir;

  @Test
  void theAgentServesTheHostsMetricsInNodeExportersNamesUntilStopped() throws Exception {
    AgentCommand agent = new AgentCommand();
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(agent);
    cli.setOut(new PrintWriter(out, true));
    int[] code = {-1};
    Thread running =
        new Thread(() -> code[0] = cli.execute("--port", "0", "--bind", "127.0.0.1"), "agent");
    running.start();
    Matcher port = Pattern.compile("127\\.0\\.0\\.1:(\\d+)/metrics").matcher("");
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!port.reset(out.toString()).find() && System.nanoTime() < end) {
      Thread.sleep(50);
    }
    assertThat(port.reset(out.toString()).find()).as(out.toString()).isTrue();
    String body =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port.group(1) + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    assertThat(body)
        .contains(
            "# TYPE node_cpu_seconds_total counter",
            "node_cpu_seconds_total{cpu=\"0\",mode=\"steal\"}",
            "node_memory_MemAvailable_bytes ",
            "node_network_receive_bytes_total{device=\"lo\"}",
            "node_filesystem_avail_bytes{mountpoint=\"/\"}");
    agent.stopped.countDown();
    running.join(5_000);
    assertThat(code[0]).isZero();

    CliRun missing = CliRun.of("agent", "--filesystem", dir.resolve("nope").toString());
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.err()).contains("--filesystem: no such file or directory");
  }

  @Tag("slow")
  @Test
  void aRunRecordsTheServersMetricsDrawsThemAndChecksThem() throws Exception {
    List<String> args = new ArrayList<>();
    String nodeExporter = System.getenv("FUSILLADE_NODE_EXPORTER");
    Process exporter = null;
    try (NodeAgent agent =
        NodeAgent.start(new InetSocketAddress("127.0.0.1", 0), List.of(Path.of("/")))) {
      if (nodeExporter != null && !nodeExporter.isBlank()) {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
          port = free.getLocalPort();
        }
        exporter =
            new ProcessBuilder(
                    nodeExporter,
                    "--web.listen-address=127.0.0.1:" + port,
                    "--collector.disable-defaults",
                    "--collector.cpu",
                    "--collector.meminfo",
                    "--collector.netdev")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("node_exporter.log").toFile())
                .start();
        args.addAll(List.of("--monitor", "node=http://127.0.0.1:" + port + "/metrics"));
      }
      Path file = dir.resolve("w.yml");
      Files.writeString(
          file,
          """
          queries:
            - sql: select $1::integer as id
              params:
                - {type: integer, range: [1, 1000]}
          load: {mode: rate, rate: 100, duration: 5s}
          monitor:
            - name: db
              url: %s
          checks:
            - server cpu.steal < 50%%
            - server max memory.used < 1kB for db
          """
              .formatted(agent.url()));
      Path output = dir.resolve("out");
      List<String> all =
          new ArrayList<>(List.of("run", file.toString(), "--output", output.toString()));
      all.addAll(args);
      CliRun run = CliRun.of(all.toArray(String[]::new));
      assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(FusilladeCommand.CHECK_FAILED);
      Path record = SummaryCommand.resolve(output);
      String junit = Files.readString(record.resolve("report").resolve("junit.xml"));
      assertThat(junit)
          .contains("server cpu.steal &lt; 50%")
          .containsPattern(
              "FAILED: server max memory.used &lt; 1kB for db — max memory.used: db [0-9.,]+ kB");
      RunRecord data = RunRecordReader.read(record);
      List<String> servers = new ArrayList<>(List.of("db"));
      if (exporter != null) {
        servers.add("node");
      }
      for (String server : servers) {
        String cpu = "server." + server + ".cpu.user";
        assertThat(data.gaugeNames()).contains(cpu, "server." + server + ".memory.used");
        long seconds = Arrays.stream(data.gauge(cpu)).filter(Double::isFinite).count();
        assertThat(seconds).as(server + ": seconds with CPU").isGreaterThanOrEqualTo(4);
      }
      assertThat(data.gaugeNames()).contains("server.db.net.lo.rx", "server.db.disk.write");
      String html = Files.readString(record.resolve("report").resolve("index.html"));
      assertThat(html).contains("Server db: CPU", "Server db: network", "server db metrics");
    } finally {
      if (exporter != null) {
        exporter.destroy();
        exporter.waitFor(5, TimeUnit.SECONDS);
      }
    }
  }
}
