package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs {@link JourneySimulation} through Gatling against embedded PostgreSQL: a value saved by one
 * request's check feeds the next request, on the JDBC and the native engine.
 */
class JourneyRunTest {
  @TempDir static Path base;
  private static RunRecord record;
  private static String output;
  private static int exitCode;

  @BeforeAll
  static void runSimulation() throws Exception {
    GatlingFork run = GatlingFork.run(base, JourneySimulation.class, Map.of());
    exitCode = run.exitCode();
    output = run.output();
    record = run.record();
  }

  @Test
  void gatlingSucceeds() {
    assertThat(exitCode).as(output).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"jdbc", "native"})
  void theIdSavedByTheInsertFindsTheOrderInTheSelect(String engine) {
    int users = JourneySimulation.RATE * (int) JourneySimulation.DURATION.toSeconds();
    RequestTotals insert = record.requests().get(engine + " insert");
    RequestTotals select = record.requests().get(engine + " select");
    assertThat(insert).as(output).isNotNull();
    assertThat(insert.okCount()).as(String.valueOf(insert.errors())).isEqualTo(users);
    assertThat(select).as(output).isNotNull();
    assertThat(select.okCount()).as(String.valueOf(select.errors())).isEqualTo(users);
    assertThat(select.koCount()).isZero();
  }

  @Test
  void aRequestReadingAnAttributeNoCheckSavedIsNotBuiltUnderItsComputedName() {
    int users = 2 * JourneySimulation.RATE * (int) JourneySimulation.DURATION.toSeconds();
    RequestTotals unsaved = record.requests().get("unsaved");
    assertThat(unsaved).as(record.requests().keySet().toString()).isNotNull();
    assertThat(unsaved.koCount()).isEqualTo(users);
    assertThat(unsaved.errors().keySet())
        .singleElement()
        .asString()
        .startsWith("request not built")
        .contains("nothing");
  }
}
