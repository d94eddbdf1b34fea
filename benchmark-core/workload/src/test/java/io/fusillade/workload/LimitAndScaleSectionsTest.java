package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.limit.LimitSettings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The {@code limit} section and the {@code scale} factor of a workload file. */
class LimitAndScaleSectionsTest {
  private static LoadResult parse(String yaml) {
    return WorkloadLoader.parse("w.yml", yaml, name -> null);
  }

  private static List<String> problems(String yaml) {
    return parse(yaml).problems().stream().map(Problem::toString).toList();
  }

  @AfterEach
  void clearScale() {
    System.clearProperty(WorkloadLoader.SCALE_PROPERTY);
  }

  @Test
  void aLimitSectionGivesTheSearchsSettingsOverTheDefaults() {
    Workload w =
        parse(
                """
                queries:
                  - sql: select 1
                limit:
                  from: 200
                  max: 5000
                  step: 10s
                  warm_up: 25%
                  resolution: 0.02
                  slo: [p99 < 50ms, errors < 1%]
                """)
            .orThrow();
    LimitSettings limit = w.limit().orElseThrow();
    assertThat(limit.from()).isEqualTo(200);
    assertThat(limit.max()).isEqualTo(5000);
    assertThat(limit.step()).isEqualTo(Duration.ofSeconds(10));
    assertThat(limit.confirm()).as("as long as a step").isEqualTo(Duration.ofSeconds(10));
    assertThat(limit.warmUp()).isEqualTo(0.25);
    assertThat(limit.resolution()).isEqualTo(0.02);
    assertThat(limit.slo()).containsExactly("p99 < 50ms", "errors < 1%");
    assertThat(limit.growth()).isEqualTo(LimitSettings.DEFAULTS.growth());
    assertThat(parse("queries:\n  - sql: select 1\n").orThrow().limit()).isEmpty();
  }

  @Test
  void theShippedDiskTestSearchesUnderItsDiskBudget() {
    Workload w =
        WorkloadLoader.load(java.nio.file.Path.of("../../workloads/topic-disk.yml")).orThrow();
    assertThat(w.limit().orElseThrow().slo()).contains("disk < 20MB", "lag not growing");
    assertThat(io.fusillade.limit.LimitSlo.parse(w.limit().orElseThrow().slo()).texts()).hasSize(3);
    assertThat(w.topics().get(0).configs()).containsEntry("retention.bytes", "2097152");
  }

  @Test
  void aWrongLimitSettingIsNamedByItsLineAndKey() {
    assertThat(problems("queries:\n  - sql: select 1\nlimit:\n  from: 100\n  slo: [p99 soon]\n"))
        .singleElement()
        .asString()
        .startsWith("w.yml:5:9 limit.slo[0]: limit objective 'p99 soon' is not one of");
    assertThat(problems("queries:\n  - sql: select 1\nlimit:\n  warm_up: lots\n"))
        .singleElement()
        .asString()
        .isEqualTo("w.yml:4:12 limit.warm_up: expected a share such as 20% or 0.2, got lots");
    assertThat(problems("queries:\n  - sql: select 1\nlimit:\n  fromm: 100\n"))
        .singleElement()
        .asString()
        .contains("limit.fromm", "did you mean 'from'");
  }

  @Test
  void theScaleMultipliesRowCountsAndIntegerRanges() {
    String yaml =
        """
        scale: 0.5
        tables_schema:
          - name: orders
            row_count: 1_000 * scale
            columns:
              - {name: id, type: integer, distribution: sequential, range: [1, 1_000 * scale], unique: true}
              - {name: customer, type: integer, range: [1, 0.01 * scale]}
        """;
    Workload half = parse(yaml).orThrow();
    Table orders = half.table("orders").orElseThrow();
    assertThat(orders.rowCount()).isEqualTo(500);
    assertThat(orders.columns().get(0).upper()).isEqualTo(500L);
    assertThat(orders.columns().get(1).upper()).as("at least 1").isEqualTo(1L);
    System.setProperty(WorkloadLoader.SCALE_PROPERTY, "2");
    assertThat(parse(yaml).orThrow().table("orders").orElseThrow().rowCount()).isEqualTo(2000);
  }

  @Test
  void aBadScaleOrScaledValueIsAUserError() {
    assertThat(problems("scale: 0\ntables_schema: []\nqueries:\n  - sql: select 1\n"))
        .anySatisfy(p -> assertThat(p).contains("scale must be > 0"));
    assertThat(
            problems(
                """
                tables_schema:
                  - name: t
                    row_count: 10 x scale
                    columns:
                      - {name: id, type: integer}
                """))
        .anySatisfy(
            p ->
                assertThat(p)
                    .contains("row_count: expected an integer (or a multiple of the scale"));
    System.setProperty(WorkloadLoader.SCALE_PROPERTY, "big");
    assertThat(problems("queries:\n  - sql: select 1\n"))
        .anySatisfy(p -> assertThat(p).contains("fusillade.scale=big is not a number above 0"));
  }
}
