package io.fusillade.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.model.Container;
import io.fusillade.containers.Docker;
import io.fusillade.gatling.GatlingFork;
import io.fusillade.record.RunRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

/**
 * The quickstart simulation with {@code -Dfusillade.servers=containers}: its PostgreSQL, OpenSearch
 * and Kafka in containers (the images built here where the engine has them), one phase per protocol
 * (SQL lookups, a log ingest, topic writes read back), every request answered, and no container
 * left once the run ended. Skipped without a Docker engine, failed without one where CI=true.
 */
// Timed: the quickstart's rate check (99% of its target) is what another test's load would bend
// (see cli-tests' pom).
@Tag("timed")
@Tag("slow")
class QuickstartOnContainersTest {
  @TempDir Path dir;

  @Test
  void runsEachProtocolsPhaseOnServersInContainers() throws Exception {
    Docker.assumeAvailable();
    GatlingFork run =
        GatlingFork.run(
            dir,
            QuickstartSimulation.class,
            Map.of(
                "fusillade.servers", "containers",
                "rate", "50",
                "duration", "3s",
                "rows", "1000"));

    assertThat(run.exitCode()).as(run.output()).isZero();
    RunRecord record = run.record();
    assertThat(record.manifest().parameters()).containsEntry("target", "containers");
    assertThat(record.requests().get("account by id").okCount()).isEqualTo(150);
    assertThat(record.requests().get("bulk of 5000 web logs").okCount()).isEqualTo(4);
    assertThat(record.requests().get("write event").okCount()).isEqualTo(2000);
    record.requests().forEach((name, totals) -> assertThat(totals.koCount()).as(name).isZero());
    List<Container> left =
        DockerClientFactory.lazyClient()
            .listContainersCmd()
            .withShowAll(true)
            .withLabelFilter(Map.of(DockerClientFactory.TESTCONTAINERS_LABEL, "true"))
            .exec();
    assertThat(left).as("containers left by the run").isEmpty();
  }
}
