package io.fusillade.gatling.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.metrics.InjectionSchedule.Now;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InjectionScheduleTest {
  private static final Map<String, Object> PROFILE =
      Map.of(
          "injection",
          List.of(
              Map.of(
                  "scenario",
                  "a",
                  "steps",
                  List.of(
                      Map.of("from", 0, "to", 100, "seconds", 10),
                      Map.of("rate", 100, "seconds", 20))),
              Map.of("scenario", "closed", "model", "closed"),
              Map.of(
                  "scenario",
                  "b",
                  "phase",
                  1,
                  "steps",
                  List.of(Map.of("pauseSeconds", 5), Map.of("rate", 7, "seconds", 5)))));

  @Test
  void theStepInProgressAndItsRateFollowTheProfile() {
    InjectionSchedule schedule = InjectionSchedule.of(PROFILE);
    // The ramp: halfway at 5 s. The later phase starts when the first ends (30 s).
    assertThat(schedule.at(5)).containsExactly(new Now("a", 1, 50), new Now("b", 0, 0));
    assertThat(schedule.at(15)).containsExactly(new Now("a", 2, 100), new Now("b", 0, 0));
    assertThat(schedule.at(31)).containsExactly(new Now("a", 0, 0), new Now("b", 1, 0));
    assertThat(schedule.at(36)).containsExactly(new Now("a", 0, 0), new Now("b", 2, 7));
    assertThat(schedule.at(41)).containsExactly(new Now("a", 0, 0), new Now("b", 0, 0));
  }

  @Test
  void noProfileNoSteps() {
    assertThat(InjectionSchedule.of(Map.of()).at(3)).isEmpty();
    assertThat(InjectionSchedule.of(Map.of("injection", "nonsense")).at(3)).isEmpty();
  }
}
