package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.FusilladeLimit;
import io.fusillade.gatling.GatlingFork;
import io.fusillade.limit.LimitResult;
import io.fusillade.limit.LimitSettings;
import io.fusillade.limit.StepResult;
import io.fusillade.record.RunEvent;
import io.fusillade.record.RunSettings;
import io.fusillade.record.RunStatus;
import io.fusillade.scenarios.sql.SqlLimitRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limit search against a capacity known by construction: a query that sleeps 10 ms on a pool of
 * N connections serves at most 100·N queries a second. The search, on the embedded PostgreSQL, must
 * find it within ±15%, confirm it, and leave one run record with every step.
 */
// Alone, after the parallel tests: its claim is a rate found within 15% of a known capacity (see
// the surefire configuration).
@Tag("exclusive")
@Tag("slow")
class SqlLimitTest {
  @TempDir Path base;

  @Test
  void findsTheCapacityOfASleepingQueryOnAPoolOfSixteenConnections() throws Exception {
    int pool = 16;
    Path workload = base.resolve("sleep.yml");
    Files.writeString(
        workload,
        """
        queries:
          - sql: select pg_sleep(0.01)
        """);
    LimitSettings limit =
        LimitSettings.DEFAULTS
            .withFrom(200)
            .withStep(Duration.ofSeconds(4))
            .withSlo(List.of("errors < 1%", "p99 < 100ms", "latency not growing"));
    Map<String, String> properties =
        new HashMap<>(
            RunSettings.NONE
                .withWorkload(workload)
                .withPool(pool)
                .withEngine("native")
                .withSeed(1L)
                .toSystemProperties());
    properties.putAll(limit.toProperties());
    properties.put(LimitSettings.PROPERTY_PREFIX + "warmUp", "0.25");

    GatlingFork run = GatlingFork.run(base, SqlLimitRun.class, properties);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.record().manifest().status()).isEqualTo(RunStatus.COMPLETED);
    Map<?, ?> recorded =
        (Map<?, ?>) run.record().manifest().parameters().get(FusilladeLimit.PARAMETER);
    LimitResult result = LimitResult.fromMap(recorded);
    double capacity = 100.0 * pool;
    assertThat(result.verdict()).as(run.output()).isEqualTo(LimitResult.Verdict.FOUND);
    assertThat(result.limit()).as(run.output()).isBetween(capacity * 0.85, capacity * 1.15);
    assertThat(result.confirmation().achieved()).isGreaterThan(result.limit() * 0.95);
    // Well above the capacity, every step fails, and some did; none failed for the injector.
    assertThat(result.steps()).as(run.output()).anyMatch(s -> !s.passed());
    assertThat(result.steps())
        .as(run.output())
        .filteredOn(s -> s.target() > capacity * 1.1)
        .noneMatch(StepResult::passed);
    assertThat(result.steps()).allSatisfy(s -> assertThat(s.injector()).isNull());
    // One record: every step an event with its verdict, in order, and the result.
    List<RunEvent> ends =
        run.record().events().stream().filter(e -> e.kind().equals("limit-step-end")).toList();
    assertThat(ends).hasSameSizeAs(result.steps());
    assertThat(run.record().events())
        .anySatisfy(e -> assertThat(e.kind()).isEqualTo("limit-result"));
    assertThat(run.output()).contains("Fusillade: limit search over: maximum sustainable rate");
  }
}
