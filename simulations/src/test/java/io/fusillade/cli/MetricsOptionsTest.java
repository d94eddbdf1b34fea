package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad live-metrics options are one clear line naming the option, before anything starts. */
class MetricsOptionsTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--metrics-port=70000 | --metrics-port must be 0-65535, got 70000",
        "--metrics-port=-1 | --metrics-port must be 0-65535, got -1",
        "--metrics-hold=10s | --metrics-hold needs --metrics-port",
        "--influx-url=localhost:8086 | --influx-url: \"localhost:8086\" is not an http(s) URL"
            + " (example: http://localhost:8086/write?db=fusillade)",
      })
  void isAUserErrorNamingTheOption(String option, String message) {
    CliRun result = CliRun.of("run", "missing.yml", option);
    assertThat(result.exitCode()).isEqualTo(FusilladeCommand.USER_ERROR);
    assertThat(result.err().strip()).isEqualTo("fusillade: " + message);
  }

  @Test
  void aHoldThatIsNotADurationIsAUserError() {
    CliRun result = CliRun.of("run", "missing.yml", "--metrics-port=0", "--metrics-hold=soon");
    assertThat(result.exitCode()).isEqualTo(FusilladeCommand.USER_ERROR);
    assertThat(result.err())
        .contains("--metrics-hold: \"soon\" is not a duration (examples: 15s, 1m)")
        .doesNotContain("Exception");
  }
}
