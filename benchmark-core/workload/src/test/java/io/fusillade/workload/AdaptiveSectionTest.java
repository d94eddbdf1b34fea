package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.limit.AdaptiveSettings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code adaptive} section of a workload file. */
class AdaptiveSectionTest {
  private static LoadResult parse(String yaml) {
    return WorkloadLoader.parse("w.yml", yaml, name -> null);
  }

  private static List<String> problems(String yaml) {
    return parse(yaml).problems().stream().map(Problem::toString).toList();
  }

  @Test
  void anAdaptiveSectionGivesTheControllersSettingsOverTheDefaults() {
    Workload w =
        parse(
                """
                queries:
                  - sql: select 1
                adaptive:
                  start: 200
                  min: 20
                  max: 5000
                  increase: 5%
                  decrease: 0.8
                  window: 3s
                  duration: 30m
                  lanes: 64
                  slo: [p99 < 20ms, errors < 1%]
                """)
            .orThrow();
    AdaptiveSettings a = w.adaptive().orElseThrow();
    assertThat(a.start()).isEqualTo(200);
    assertThat(a.min()).isEqualTo(20);
    assertThat(a.max()).isEqualTo(5000);
    assertThat(a.increase()).isEqualTo(0.05);
    assertThat(a.decrease()).isEqualTo(0.8);
    assertThat(a.window()).isEqualTo(Duration.ofSeconds(3));
    assertThat(a.duration()).isEqualTo(Duration.ofMinutes(30));
    assertThat(a.lanes()).isEqualTo(64);
    assertThat(a.slo()).containsExactly("p99 < 20ms", "errors < 1%");
    assertThat(parse("queries:\n  - sql: select 1\n").orThrow().adaptive()).isEmpty();
    assertThat(parse("queries:\n  - sql: select 1\nadaptive:\n  max: 50\n").orThrow().adaptive())
        .hasValueSatisfying(s -> assertThat(s.start()).isEqualTo(50));
  }

  @Test
  void aWrongAdaptiveSettingIsNamedByItsLineAndKey() {
    assertThat(problems("queries:\n  - sql: select 1\nadaptive:\n  slo: [p99 soon]\n"))
        .singleElement()
        .asString()
        .startsWith("w.yml:4:9 adaptive.slo[0]: ");
    assertThat(problems("queries:\n  - sql: select 1\nadaptive:\n  decrease: 1.5\n"))
        .singleElement()
        .asString()
        .isEqualTo(
            "w.yml:4:13 adaptive.decrease: adaptive decrease must be at least 0.5 and below 1");
    assertThat(problems("queries:\n  - sql: select 1\nadaptive:\n  strat: 100\n"))
        .singleElement()
        .asString()
        .contains("adaptive.strat", "did you mean 'start'");
  }
}
