package io.fusillade.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.ArrivalSchedule;
import io.fusillade.gatling.ArrivalSchedule.Segment;
import io.fusillade.record.RunSettings.Stage;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link StageInjection}: the one translation of load profiles into arrival schedules. */
class StageInjectionTest {

  @Test
  void holdsAreConstantRatesAndRampsAreRateRampsInOrder() {
    List<Segment> segments =
        StageInjection.of(
            List.of(
                new Stage(0, 200, Duration.ofSeconds(10)),
                new Stage(200, 200, Duration.ofSeconds(60)),
                new Stage(1000, 1000, Duration.ofMillis(500)),
                new Stage(200, 50, Duration.ofSeconds(5))));

    assertThat(segments)
        .containsExactly(
            new Segment(0, 200, Duration.ofSeconds(10)),
            Segment.constant(200, Duration.ofSeconds(60)),
            Segment.constant(1000, Duration.ofMillis(500)),
            new Segment(200, 50, Duration.ofSeconds(5)));
    // 1,000 + 12,000 + 500 + 625 arrivals
    assertThat(new ArrivalSchedule(segments).count()).isEqualTo(14_125);
  }

  @Test
  void risingStepsAreGatlingsIncrementUsersPerSec() {
    assertThat(StageInjection.rising(100, 50, 3, Duration.ofSeconds(2)))
        .containsExactly(
            Segment.constant(100, Duration.ofSeconds(2)),
            Segment.constant(150, Duration.ofSeconds(2)),
            Segment.constant(200, Duration.ofSeconds(2)));
  }

  @Test
  void noStagesNoSegments() {
    assertThat(StageInjection.of(List.of())).isEmpty();
  }
}
