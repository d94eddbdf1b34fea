package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.health.InjectorLagMonitor;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@link SmokeSimulation} through Gatling's own launcher in a separate JVM, as {@code mvn
 * gatling:test} does, and checks what both Gatling and Fusillade left behind.
 */
@Tag("slow")
class GatlingRunTest {
  @TempDir static Path base;
  private static RunRecord record;
  private static String output;
  private static int exitCode;

  @BeforeAll
  static void runSimulation() throws Exception {
    GatlingFork run = GatlingFork.run(base, SmokeSimulation.class, Map.of());
    exitCode = run.exitCode();
    output = run.output();
    record = run.record();
  }

  @Test
  void gatlingSucceedsAndWritesItsReport() throws Exception {
    assertThat(exitCode).as(output).isZero();
    try (Stream<Path> reports = Files.walk(base.resolve("gatling"))) {
      assertThat(reports.anyMatch(p -> p.getFileName().toString().equals("index.html"))).isTrue();
    }
  }

  @Test
  void everyRequestIsInTheRunRecordWithItsOutcome() {
    int expectedGood = SmokeSimulation.RATE * (int) SmokeSimulation.DURATION.toSeconds();
    int expectedBroken = SmokeSimulation.FAILING_RATE * (int) SmokeSimulation.DURATION.toSeconds();

    RequestTotals good = record.requests().get("by id");
    assertThat(good.okCount()).isEqualTo(expectedGood);
    assertThat(good.koCount()).isZero();
    assertThat(good.sent()).isEqualTo(expectedGood);

    RequestTotals missingTable = record.requests().get("missing table");
    assertThat(missingTable.okCount()).isZero();
    assertThat(missingTable.koCount()).isEqualTo(expectedBroken);
    assertThat(missingTable.errors().keySet())
        .singleElement()
        .asString()
        .startsWith("SQLState 42P01");

    RequestTotals missingAttribute = record.requests().get("missing attribute");
    assertThat(missingAttribute.koCount()).isEqualTo(expectedBroken);
    assertThat(missingAttribute.errors().keySet())
        .singleElement()
        .asString()
        .startsWith("request not built")
        .contains("nope");
  }

  @Test
  void theRunRecordIsCompleteAndCarriesItsSimulationParametersAndInjectorHealth() {
    assertThat(record.manifest().status()).isEqualTo(RunStatus.COMPLETED);
    assertThat(record.manifest().simulation()).isEqualTo(SmokeSimulation.class.getName());
    // Not declared by the simulation: read from its injection profile, the two populations
    // together.
    assertThat(record.manifest().parameters())
        .containsEntry("rate", SmokeSimulation.RATE + SmokeSimulation.FAILING_RATE)
        .containsEntry("durationSeconds", (int) SmokeSimulation.DURATION.toSeconds())
        .containsKey("injection");
    assertThat(record.manifest().health()).containsKey(InjectorLagMonitor.HEALTH_KEY);
    assertThat(record.metrics().get(InjectorLagMonitor.METRIC).getTotalCount()).isGreaterThan(100);
  }

  @Test
  void theConsoleShowsFusilladesSummaryAndWhereTheRecordIs() {
    assertThat(output).contains("Fusillade run record: " + record.directory().toAbsolutePath());
    assertThat(output).containsPattern("by id\\s+120\\s+120\\s+0");
    // The same table as `fusillade summary` and `fusillade report` print.
    assertThat(output)
        .containsPattern(
            "request\\s+count\\s+OK\\s+KO\\s+rate/s\\s+p50 ms\\s+p90 ms\\s+p95 ms\\s+p99 ms"
                + "\\s+p99\\.9 ms\\s+max ms")
        .contains("Fusillade report: " + record.directory().toAbsolutePath().resolve("report"));
  }

  @Test
  void gatlingCountsEachResponseUnderItsGroup() {
    assertThat(output).containsPattern("> lookups / by id\\s+\\|\\s+120\\s+\\|\\s+120\\s+\\|\\s+0");
    assertThat(output).containsPattern("> missing table\\s+\\|\\s+15\\s+\\|\\s+0\\s+\\|\\s+15");
  }
}
