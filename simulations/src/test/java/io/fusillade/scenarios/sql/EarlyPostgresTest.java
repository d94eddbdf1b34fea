package io.fusillade.scenarios.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgresCluster;
import io.fusillade.record.RunSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The forked JVM's main begins the embedded PostgreSQL of a workload run that needs one, and only
 * of such a run; the simulation takes the server it began.
 */
class EarlyPostgresTest {
  @TempDir Path dir;

  @AfterEach
  void clear() {
    System.clearProperty(RunSettings.WORKLOAD);
    System.clearProperty(RunSettings.URLS);
    EarlyPostgres.take().ifPresent(LocalPostgresCluster::close);
  }

  @Test
  void aWorkloadRunWithoutADatabaseGetsItsServerStartedBeforeItsConstructor() throws Exception {
    System.setProperty(RunSettings.WORKLOAD, workload().toString());
    new EarlyPostgres().begin(SqlRateRun.class.getName());
    Optional<LocalPostgresCluster> taken = EarlyPostgres.take();
    assertThat(taken).isPresent();
    try (LocalPostgresCluster cluster = taken.get();
        var connection =
            DriverManager.getConnection(cluster.nodes().get(0).jdbcUrl(), cluster.user(), null)) {
      assertThat(connection.isValid(5)).isTrue();
    }
    // taken once: the next run's constructor starts its own
    assertThat(EarlyPostgres.take()).isEmpty();
  }

  @Test
  void nothingIsBegunForADatabaseGivenOrAnotherSimulationOrAWorkloadInError() throws Exception {
    System.setProperty(RunSettings.WORKLOAD, workload().toString());
    new EarlyPostgres().begin("com.example.MySimulation");
    new EarlyPostgres().begin("io.fusillade.scenarios.topic.TopicRun");
    assertThat(EarlyPostgres.take()).isEmpty();

    System.setProperty(RunSettings.URLS, "jdbc:postgresql://localhost:1/app");
    new EarlyPostgres().begin(SqlQueueRun.class.getName());
    assertThat(EarlyPostgres.take()).isEmpty();

    System.clearProperty(RunSettings.URLS);
    Path broken = Files.writeString(dir.resolve("broken.yml"), "queries: [\n");
    System.setProperty(RunSettings.WORKLOAD, broken.toString());
    new EarlyPostgres().begin(SqlRateRun.class.getName());
    assertThat(EarlyPostgres.take()).isEmpty();
  }

  private Path workload() throws Exception {
    return Files.writeString(
        dir.resolve("w.yml"),
        """
        queries:
          - sql: select 1
        """);
  }
}
