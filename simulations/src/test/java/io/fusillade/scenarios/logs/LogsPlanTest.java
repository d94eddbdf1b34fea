package io.fusillade.scenarios.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import io.fusillade.workload.LogIngest;
import io.fusillade.workload.LogsSection;
import io.fusillade.workload.WorkloadLoader;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link LogsPlan}: the command line's rate and duration against a section with stages. */
class LogsPlanTest {

  private static LogsSection section(String yaml) {
    return WorkloadLoader.parse("l.yml", yaml, name -> null).orThrow().logs().orElseThrow();
  }

  @Test
  void stagesRunAsWrittenWithoutOverrides() {
    LogsSection logs = section("logs: {stages: [{ramp: 0..10, over: 5s}, {hold: 10, for: 5s}]}");
    LogIngest ingest = LogsPlan.ingest(logs, null, null);
    assertThat(ingest.mode()).isEqualTo(LogIngest.Mode.STAGES);
    assertThat(ingest.stages()).hasSize(2);
  }

  @Test
  void rateOrDurationOnStagesIsAUserError() {
    LogsSection logs = section("logs: {stages: [{hold: 10, for: 5s}]}");
    assertThatThrownBy(() -> LogsPlan.ingest(logs, 5.0, null))
        .isInstanceOf(FusilladeException.class)
        .hasMessage(
            "--rate applies to a logs section with rate:, and this one ingests stages: edit the"
                + " file instead");
    assertThatThrownBy(() -> LogsPlan.ingest(logs, null, Duration.ofSeconds(3)))
        .hasMessageStartingWith("--duration applies to a logs section with rate:");
  }
}
