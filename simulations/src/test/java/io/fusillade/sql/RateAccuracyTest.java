package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.health.InjectorLagMonitor;
import io.fusillade.quickstart.QuickstartSimulation;
import io.fusillade.record.RequestTotals;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 60 seconds at 1,000 requests per second on the embedded PostgreSQL: the whole target is sent,
 * every second within 10% of it, and the injector keeps up (lag p99 under 20 ms).
 */
class RateAccuracyTest {
  @TempDir Path base;

  @Test
  void aConstantRateIsHeldSecondBySecond() throws Exception {
    GatlingFork run =
        GatlingFork.run(
            base,
            QuickstartSimulation.class,
            // The SQL phase alone: an OpenSearch node and a Kafka broker warming up in the same
            // JVM during its first seconds would be measured as the injector's jitter.
            Map.of("rate", "1000", "duration", "60s", "phases", "sql"));
    assertThat(run.exitCode()).as(run.output()).isZero();
    // The target as the run record has it, from the injection profile.
    assertThat(run.record().manifest().parameters())
        .containsEntry("rate", 1000)
        .containsEntry("durationSeconds", 60);

    RequestTotals lookups = run.record().requests().get("account by id");
    assertThat(lookups.count()).isBetween(59_400L, 60_600L);
    assertThat(lookups.koCount()).isZero();
    List<double[]> perSecond = CoordinatedOmissionTest.arrivalRates(run.record(), "account by id");
    assertThat(perSecond).hasSizeGreaterThanOrEqualTo(55);
    assertThat(perSecond).allSatisfy(rate -> assertThat(rate[0]).isBetween(900.0, 1100.0));

    @SuppressWarnings("unchecked")
    Map<String, Object> lag =
        (Map<String, Object>) run.record().manifest().health().get(InjectorLagMonitor.HEALTH_KEY);
    assertThat(((Number) lag.get("p99Ms")).doubleValue()).isLessThan(20.0);
    assertThat(lag.get("saturated")).isEqualTo(false);
  }
}
