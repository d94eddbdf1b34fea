package io.fusillade.compose;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.cli.FusilladeCommand;
import io.fusillade.containers.ContainerKafka;
import io.fusillade.containers.Docker;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecordReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compose files start: {@code docker compose -f docker/compose/X.yml up -d --wait} brings each
 * stack up, healthy, with the images built here (docker/compose/local-images.env) where the engine
 * has them, and a {@code fusillade run} of a short workload against its published ports passes;
 * {@code down -v} then removes it. postgres.yml is started by {@code InjectorImageTest}, whose
 * injectors run against it; kafka-cluster.yml is resolved, not started (see its test). Skipped
 * without a Docker engine and Compose v2, failed without them where CI=true.
 */
@Tag("slow")
class ComposeStacksTest {
  private static final Map<String, String> NO_ENV = Map.of();

  @TempDir Path dir;

  @BeforeAll
  static void requireCompose() throws Exception {
    DockerCli.assumeCompose();
  }

  @Test
  void theKafkaAndOpenSearchStacksStartAndARunAgainstEachPasses() throws Exception {
    try {
      // side by side: their waits for health overlap, and so do the two runs
      CompletableFuture<Void> kafka = upLater("kafka.yml");
      CompletableFuture<Void> openSearch = upLater("opensearch.yml");
      kafka.join();
      openSearch.join();

      Path topics = topics();
      CompletableFuture<Run> topicsRun =
          CompletableFuture.supplyAsync(() -> run(topics, "--url", "localhost:9092"));
      Path logs =
          file(
              "logs.yml",
              """
                  seed: 3
                  logs:
                    profile: web
                    index: compose-logs
                    bulk_size: 1000
                    docs: 4000
                    concurrency: 1
                    searches:
                      - {name: status in, iterations: 2}
                  checks: [errors < 1%]
                  """);
      assertPasses(run(logs, "--url", "http://localhost:9200"), logs);
      assertPasses(topicsRun.join(), topics);
    } finally {
      DockerCli.down("kafka.yml", NO_ENV);
      DockerCli.down("opensearch.yml", NO_ENV);
    }
  }

  /**
   * The three-broker stack is not started here: the suite's one three-broker start is
   * ContainerKafkaTest's, on the same image and the same KAFKA_* settings (starting this one too
   * took 48 s: 29 s until its health checks passed). Compose resolves it to the local image on
   * every broker, each advertising its own published port.
   */
  @Test
  void theKafkaClusterStackResolvesToTheLocalImageOnItsThreeBrokers() throws Exception {
    DockerCli.Result config =
        DockerCli.compose("kafka-cluster.yml", Duration.ofMinutes(1), NO_ENV, "config");
    assertThat(config.exitCode()).as(config.output()).isZero();
    if (Docker.hasImage(ContainerKafka.LOCAL_IMAGE) || "true".equals(System.getenv("CI"))) {
      assertThat(config.output().split("image: " + ContainerKafka.LOCAL_IMAGE, -1)).hasSize(4);
    }
    for (int port = 9092; port <= 9094; port++) {
      assertThat(config.output()).contains("EXTERNAL://localhost:" + port);
    }
  }

  private static CompletableFuture<Void> upLater(String file) {
    return CompletableFuture.runAsync(
        () -> {
          try {
            DockerCli.up(file, NO_ENV);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  private Path topics() throws Exception {
    return file(
        "topics.yml",
        """
        seed: 3
        topics:
          - name: compose-events
            partitions: 2
            replication: 1
            consumers: 1
            message_size: {type: integer, range: [100, 100]}
            rate: 100
            duration: 3s
        checks: [errors < 1%]
        """);
  }

  private Path file(String name, String yaml) throws Exception {
    return Files.writeString(dir.resolve(name), yaml);
  }

  private record Run(int exitCode, String out, String err) {}

  private Run run(Path workload, String... options) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "run",
                workload.toString(),
                "--output",
                dir.resolve("out-" + workload.getFileName()).toString()));
    args.addAll(List.of(options));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        FusilladeCommand.execute(
            args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(code, out.toString(), err.toString());
  }

  /**
   * Exit code 0: the run completed and its check passed (a failed one exits 3); its record holds
   * answered requests and no failed one.
   */
  private void assertPasses(Run run, Path workload) throws Exception {
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    Path output = dir.resolve("out-" + workload.getFileName());
    Path record;
    try (var runs = Files.list(output)) {
      record = runs.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    Map<String, RequestTotals> requests = RunRecordReader.read(record).requests();
    assertThat(requests).isNotEmpty();
    requests.forEach(
        (name, totals) -> {
          assertThat(totals.okCount()).as(name).isPositive();
          assertThat(totals.koCount()).as(name).isZero();
        });
  }
}
