package io.fusillade.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.FusilladeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunSettingsTest {
  static final RunSettings FULL =
      RunSettings.NONE
          .withMode(RunSettings.Mode.RATE)
          .withRate(250)
          .withDuration(Duration.ofSeconds(90))
          .withSpike(
              new RunSettings.Spike(
                  900, Duration.ofSeconds(5), Duration.ofMillis(1500), Duration.ofMinutes(1)))
          .withUsers(12)
          .withSeed(7L)
          .withWorkload(Path.of("/tmp/work.yml"))
          .withUrls(List.of("jdbc:postgresql://a/db", "jdbc:postgresql://b/db"))
          .withUser("app")
          .withEngine("native")
          .withPool(16)
          .withBalance("weighted:2,1")
          .withSetup("true")
          .withTeardown(true)
          .withStages(
              List.of(
                  new RunSettings.Stage(0, 200, Duration.ofSeconds(10)),
                  new RunSettings.Stage(200, 200, Duration.ofMillis(1500))))
          .withChecks(List.of("p99 < 50ms for \"a, b\"", "errors < 1%"));

  static RunSettings read(Map<String, String> properties) {
    return RunSettings.from(SettingValues.of(properties::get));
  }

  @Test
  void aSizeIsReadInDecimalOrBinaryUnitsAndAnythingElseSaysWhatASizeLooksLike() {
    assertThat(SettingValues.parseSize("16MB")).isEqualTo(16_000_000);
    assertThat(SettingValues.parseSize(" 64 MiB ")).isEqualTo(64L * 1024 * 1024);
    assertThat(SettingValues.parseSize("1.5GB")).isEqualTo(1_500_000_000L);
    assertThat(SettingValues.parseSize("512kb")).isEqualTo(512_000);
    for (String wrong : List.of("lots", "16", "MB", "16 parsecs", "")) {
      assertThatThrownBy(() -> SettingValues.parseSize(wrong))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("not a size (16MB, 64MiB, 1GB): " + wrong);
    }
  }

  @Test
  void systemPropertiesRoundTrip() {
    Map<String, String> properties = FULL.toSystemProperties();
    assertThat(properties)
        .containsEntry("fusillade.rate", "250")
        .containsEntry("fusillade.duration", "90s")
        .containsEntry("fusillade.hold", "1500ms")
        .containsEntry("fusillade.urls", "jdbc:postgresql://a/db,jdbc:postgresql://b/db")
        .containsEntry("fusillade.teardown", "true")
        .containsEntry("fusillade.stages", "0..200/10s,200..200/1500ms")
        .containsEntry("fusillade.checks", "p99 < 50ms for \"a, b\"\nerrors < 1%");
    assertThat(read(properties)).isEqualTo(FULL);
    assertThat(read(RunSettings.NONE.toSystemProperties())).isEqualTo(RunSettings.NONE);
    assertThat(RunSettings.NONE.toSystemProperties()).isEmpty();
  }

  @Test
  void aFractionalRateStaysFractional() {
    RunSettings half = RunSettings.NONE.withRate(2.5);
    assertThat(half.toSystemProperties()).containsEntry("fusillade.rate", "2.5");
    assertThat(read(half.toSystemProperties()).rate()).isEqualTo(2.5);
    assertThat(half.toParameters()).containsEntry("rate", 2.5);
  }

  @Test
  void runJsonRoundTripThroughJson() throws Exception {
    RunSettings recorded =
        FULL.withSteps(new RunSettings.Steps(List.of(2.0, 4.5), Duration.ofSeconds(30)));
    Map<String, Object> parameters = recorded.toParameters();
    assertThat(parameters)
        .containsEntry("mode", "rate")
        .containsEntry("rate", 250)
        .containsEntry("durationSeconds", 90L)
        .containsEntry("peak", 900)
        .containsEntry("holdSeconds", 1.5)
        .containsEntry("rates", List.of(2, 4.5))
        .containsEntry("users", 12)
        .containsEntry("seed", 7L)
        .containsEntry(
            "stages",
            List.of(
                Map.of("from", 0, "to", 200, "seconds", 10L),
                Map.of("from", 200, "to", 200, "seconds", 1.5)))
        .doesNotContainKeys("urls", "user", "engine", "checks");
    // As the reports see it: written by Jackson, read back as maps of Integer, Double, String.
    ObjectMapper json = new ObjectMapper();
    @SuppressWarnings("unchecked")
    Map<String, Object> read = json.readValue(json.writeValueAsString(parameters), Map.class);
    RunSettings back = RunSettings.fromParameters(read);
    assertThat(back.mode()).isEqualTo(RunSettings.Mode.RATE);
    assertThat(back.rate()).isEqualTo(250.0);
    assertThat(back.duration()).isEqualTo(Duration.ofSeconds(90));
    assertThat(back.spike()).isEqualTo(recorded.spike());
    assertThat(back.steps()).isEqualTo(recorded.steps());
    assertThat(back.users()).isEqualTo(12);
    assertThat(back.seed()).isEqualTo(7L);
    assertThat(back.workload()).isEqualTo(Path.of("/tmp/work.yml"));
    assertThat(back.stages()).isEqualTo(recorded.stages());
  }

  @Test
  void aMalformedStageNamesTheProperty() {
    assertThatThrownBy(() -> read(Map.of("fusillade.stages", "0..200/10s,fast")))
        .isInstanceOf(FusilladeException.class)
        .hasMessage(
            "system property fusillade.stages: \"fast\" is not a stage such as 0..200/10s"
                + " (from..to/duration)");
  }

  @Test
  void recordsOfOlderVersionsAreReadInTheirSpellings() {
    Map<String, Object> old = new HashMap<>();
    old.put("targetRate", 300);
    old.put("rate", 100);
    old.put("duration", "PT1M");
    old.put("rates", List.of(2, 4));
    old.put("stepDuration", "PT10S");
    old.put("workload", "topics demo"); // a topic run's workload name, not a file
    RunSettings settings = RunSettings.fromParameters(old);
    assertThat(settings.rate()).isEqualTo(300.0);
    assertThat(RunParameters.rateParameter(old)).isEqualTo("targetRate");
    assertThat(settings.duration()).isEqualTo(Duration.ofMinutes(1));
    assertThat(settings.steps())
        .isEqualTo(new RunSettings.Steps(List.of(2.0, 4.0), Duration.ofSeconds(10)));
    assertThat(settings.workload()).isNull();

    assertThat(RunParameters.rateParameter(Map.of("rate", 5))).isEqualTo("rate");
    assertThat(RunParameters.rateParameter(Map.of("rate", "fast"))).isNull();
    assertThat(RunSettings.fromParameters(Map.of()).rate()).isNull();
  }

  @Test
  void badValuesNameThePropertyAsSimulationPropertiesDid() {
    assertThatThrownBy(() -> read(Map.of("fusillade.users", "ten")))
        .isInstanceOf(FusilladeException.class)
        .hasMessage("system property fusillade.users=ten is not a whole number");
    assertThatThrownBy(() -> read(Map.of("fusillade.seed", "1.5")))
        .isInstanceOf(FusilladeException.class)
        .hasMessage("system property fusillade.seed=1.5 is not a whole number");
    assertThatThrownBy(() -> read(Map.of("fusillade.duration", "soon")))
        .isInstanceOf(FusilladeException.class)
        .hasMessage(
            "system property fusillade.duration=soon is not a duration (examples: 30s, 500ms, 2m,"
                + " 1h)");
    assertThatThrownBy(() -> read(Map.of("fusillade.rate", "fast")))
        .isInstanceOf(FusilladeException.class)
        .hasMessage("system property fusillade.rate=fast is not a number");
    assertThatThrownBy(() -> read(Map.of("fusillade.mode", "burst")))
        .isInstanceOf(FusilladeException.class)
        .hasMessage("system property fusillade.mode=burst is not one of queue, rate, logs, topics");
  }

  @Test
  void blankValuesAreUnsetAndASpikeTakesItsDefaults() {
    RunSettings settings =
        read(Map.of("fusillade.rate", " ", "fusillade.peak", "500", "fusillade.urls", " a , ,b"));
    assertThat(settings.rate()).isNull();
    assertThat(settings.spike())
        .isEqualTo(
            new RunSettings.Spike(
                500, Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(10)));
    assertThat(settings.urls()).containsExactly("a", "b");
    assertThat(read(Map.of("fusillade.peak", "0")).spike()).isNull();
  }

  @Test
  void durationsParseAsBefore() {
    assertThat(SettingValues.parseDuration("30")).isEqualTo(Duration.ofSeconds(30));
    assertThat(SettingValues.parseDuration("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(SettingValues.parseDuration("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(SettingValues.parseDuration("PT1H")).isEqualTo(Duration.ofHours(1));
    assertThatThrownBy(() -> SettingValues.parseDuration("2 weeks"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
