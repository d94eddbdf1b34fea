package io.fusillade.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunSettings.Stage;
import io.gatling.javaapi.core.OpenInjectionStep;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link StageInjection}: the one translation of stages into Gatling's open injection. */
class StageInjectionTest {

  @Test
  void holdsAreConstantRatesAndRampsAreRateRampsInOrder() {
    List<OpenInjectionStep> steps =
        StageInjection.of(
            List.of(
                new Stage(0, 200, Duration.ofSeconds(10)),
                new Stage(200, 200, Duration.ofSeconds(60)),
                new Stage(1000, 1000, Duration.ofMillis(500)),
                new Stage(200, 50, Duration.ofSeconds(5))));

    assertThat(steps.stream().map(s -> s.asScala().toString()).toList())
        .containsExactly(
            "RampRateOpenInjection(0.0,200.0,10 seconds)",
            "ConstantRateOpenInjection(200.0,60 seconds)",
            "ConstantRateOpenInjection(1000.0,500000000 nanoseconds)",
            "RampRateOpenInjection(200.0,50.0,5 seconds)");
  }

  @Test
  void noStagesNoSteps() {
    assertThat(StageInjection.of(List.of())).isEmpty();
  }
}
