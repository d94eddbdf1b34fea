package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Picostress example as published, run as written on the embedded PostgreSQL: schema up and
 * fill, {@link SqlQueueSimulation} with its 100 queries split between 4 users (its {@code
 * $2::string} cast, Picodata's name for {@code text}, sent as {@code $2::text}, and said so),
 * schema down — with no KO, on either engine.
 */
@Tag("slow")
class PicostressQueueTest {
  @TempDir Path base;

  @ParameterizedTest(name = "{0} engine")
  @ValueSource(strings = {"jdbc", "native"})
  void theExampleRunsItsWholeQueueWithoutAFailure(String engine) throws Exception {
    Path workload =
        Path.of("../benchmark-core/workload/src/test/resources/workloads/picostress-queue.yml")
            .toAbsolutePath()
            .normalize();
    GatlingFork run =
        GatlingFork.run(
            base,
            SqlQueueSimulation.class,
            RunSettings.NONE
                .withWorkload(workload)
                .withUsers(4)
                .withSeed(7L)
                .withTeardown(true)
                .withEngine(engine)
                .toSystemProperties());

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.output())
        .contains("created table cars_q", "created index cars_brand_index")
        .contains(
            "Fusillade: note: "
                + workload
                + ":53:70 queries[0].sql: ::string is Picodata's name for text: sent as ::text")
        .containsPattern("filled cars_q: 100 rows")
        .contains("dropped table cars_q");
    RequestTotals queries = run.record().requests().get("query1");
    assertThat(queries).as(run.output()).isNotNull();
    assertThat(queries.okCount()).isEqualTo(100);
    assertThat(queries.koCount()).isZero();
    assertThat(run.record().manifest().parameters())
        .containsEntry("mode", "queue")
        .containsEntry("seed", 7)
        .containsEntry("target", "embedded")
        .containsEntry("sql.engine", engine);
  }
}
