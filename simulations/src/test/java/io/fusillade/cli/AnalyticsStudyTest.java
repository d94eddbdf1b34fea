package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analytics study's file as shipped, and its mistakes. (The study itself runs two ladders, over
 * a minute even in its smallest form: it is measured by hand, see src/site/analytics.md.)
 */
class AnalyticsStudyTest {
  @TempDir Path dir;

  @Test
  void theShippedStudyIsTheSeedsLadder() {
    Path file = Path.of("..", "workloads", "studies", "analytics-ladder.yml");
    assertThat(AnalyticsStudy.is(file)).isTrue();
    assertThat(AnalyticsStudy.is(Path.of("analytics"))).isTrue();
    AnalyticsStudy.Settings s = AnalyticsStudy.Settings.read(file);
    assertThat(s.workload().getFileName().toString()).isEqualTo("tpcds.yml");
    assertThat(Files.isRegularFile(s.workload())).isTrue();
    assertThat(s.queries()).isEqualTo("lite");
    assertThat(s.levels()).isEqualTo(List.of(1, 2, 4, 8));
    assertThat(s.repeats()).isEqualTo(3);
    assertThat(s.scale()).isEqualTo(0.05);
    assertThat(s.starve()).isEqualTo("cpu=1,burners=2");
  }

  @Test
  void aStudyFileWithoutItsKeysIsRefusedNamingThem() throws Exception {
    Path file = dir.resolve("s.yml");
    Files.writeString(file, "study: analytics\nworkload: ../../workloads/nope.yml\n");
    assertThatThrownBy(() -> AnalyticsStudy.Settings.read(file))
        .isInstanceOf(FusilladeException.class)
        .hasMessageContaining("nope.yml not found");
    Files.writeString(file, "study: other\n");
    assertThatThrownBy(() -> AnalyticsStudy.Settings.read(file))
        .hasMessageContaining("'study: analytics' expected");
  }
}
