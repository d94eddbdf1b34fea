package io.fusillade.reports.runs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.reports.stats.Comparison;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code compare} names what was set differently for the two sides, from run.json. */
class ParameterDifferencesTest {
  @TempDir Path base;

  private List<RunData> side(String name, String workMem, int... runs) throws Exception {
    for (int i : runs) {
      SyntheticRecord.run()
          .seed(i)
          .start(1_800_000_000_000L + i * 60_000L)
          .seconds(3)
          .rate(100)
          .median(2_000)
          .parameter("rate", 100)
          .parameter("run", i) // differs within a side: not a configuration difference
          .parameter(
              "sql.server",
              Map.of(
                  "product",
                  "PostgreSQL",
                  "version",
                  "18.1",
                  "settings",
                  Map.of("work_mem", workMem, "fsync", "off")))
          .write(base.resolve(name), name + "-" + i);
    }
    return RunMetrics.load(List.of(base.resolve(name)));
  }

  @Test
  void aServerSettingChangedBetweenTheSidesIsNamedAndWhatVariesWithinASideIsNot() throws Exception {
    List<RunData> baseline = side("base", "4096kB", 1, 2, 3);
    List<RunData> candidate = side("cand", "65536kB", 4, 5, 6);

    assertThat(ParameterDifferences.between(baseline, candidate))
        .containsExactly("sql.server.settings.work_mem: 4096kB → 65536kB");
    String rendered =
        RunComparison.of(baseline, candidate, Comparison.Settings.DEFAULTS, RunComparison.LEVEL)
            .render();
    assertThat(rendered)
        .startsWith("Set differently (baseline → candidate):")
        .contains("  sql.server.settings.work_mem: 4096kB → 65536kB");
  }

  @Test
  void theSameSettingsOnBothSidesSayNothing() throws Exception {
    List<RunData> baseline = side("base", "4096kB", 1, 2);
    List<RunData> candidate = side("cand", "4096kB", 3, 4);
    assertThat(ParameterDifferences.between(baseline, candidate)).isEmpty();
    assertThat(
            RunComparison.of(baseline, candidate, Comparison.Settings.DEFAULTS, RunComparison.LEVEL)
                .render())
        .doesNotContain("Set differently");
  }

  @Test
  void nestedParametersAreFlattenedToDottedNames() {
    assertThat(ParameterDifferences.flat(Map.of("a", Map.of("b", 1, "c", List.of(1, 2)))))
        .containsExactlyInAnyOrderEntriesOf(Map.of("a.b", "1", "a.c", "[1, 2]"));
  }
}
