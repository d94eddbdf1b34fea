package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RequestTotals;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs {@link JourneySimulation} through Gatling against embedded PostgreSQL: a value saved by one
 * request's check feeds the next request, on the JDBC and the native engine.
 */
@Tag("slow") // forks Gatling against an embedded PostgreSQL
class JourneyRunTest {
  @TempDir static Path base;
  private static GatlingFork run;

  @BeforeAll
  static void runSimulation() throws Exception {
    run = GatlingFork.run(base, JourneySimulation.class, Map.of());
  }

  @Test
  void gatlingSucceeds() {
    assertThat(run.exitCode()).as(run.output()).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"jdbc", "native"})
  void theIdSavedByTheInsertFindsTheOrderInTheSelect(String engine) {
    int users = JourneySimulation.RATE * (int) JourneySimulation.DURATION.toSeconds();
    RequestTotals insert = run.record().requests().get(engine + " insert");
    RequestTotals select = run.record().requests().get(engine + " select");
    assertThat(insert).as(run.output()).isNotNull();
    assertThat(insert.okCount()).as(String.valueOf(insert.errors())).isEqualTo(users);
    assertThat(select).as(run.output()).isNotNull();
    assertThat(select.okCount()).as(String.valueOf(select.errors())).isEqualTo(users);
    assertThat(select.koCount()).isZero();
  }

  @Test
  void aRequestReadingAnAttributeNoCheckSavedIsNotBuiltUnderItsComputedName() {
    int users = 2 * JourneySimulation.RATE * (int) JourneySimulation.DURATION.toSeconds();
    RequestTotals unsaved = run.record().requests().get("unsaved");
    assertThat(unsaved).as(run.record().requests().keySet().toString()).isNotNull();
    assertThat(unsaved.koCount()).isEqualTo(users);
    assertThat(unsaved.errors().keySet())
        .singleElement()
        .asString()
        .startsWith("request not built")
        .contains("nothing");
  }
}
