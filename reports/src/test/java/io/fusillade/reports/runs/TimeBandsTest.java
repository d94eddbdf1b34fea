package io.fusillade.reports.runs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.reports.runs.TimeBands.Band;
import io.fusillade.reports.runs.TimeBands.Kind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimeBandsTest {
  @TempDir Path base;

  @Test
  void theInjectionProfilesStepsAreBandsFromWhereInjectionBegan() {
    Map<String, Object> parameters =
        Map.of(
            "injection",
            List.of(
                Map.of(
                    "scenario",
                    "lookups",
                    "steps",
                    List.of(
                        Map.of("from", 0, "to", 100, "seconds", 5),
                        Map.of("rate", 100, "seconds", 10),
                        Map.of("users", 5),
                        Map.of("rate", 200, "seconds", 10.5))),
                Map.of("scenario", "side", "steps", List.of(Map.of("rate", 1, "seconds", 40)))));
    assertThat(TimeBands.steps(parameters, 2))
        .containsExactly(
            new Band("0→100/s", 2, 7, Kind.STEP),
            new Band("100/s", 7, 17, Kind.STEP),
            new Band("200/s", 17, 27.5, Kind.STEP));
  }

  @Test
  void aLaterPhaseStartsAfterTheLongestPopulationOfTheEarlierOneAndALeadingPauseCounts() {
    Map<String, Object> parameters =
        Map.of(
            "injection",
            List.of(
                Map.of(
                    "scenario",
                    "sql",
                    "steps",
                    List.of(Map.of("pauseSeconds", 3), Map.of("rate", 50, "seconds", 10))),
                Map.of("scenario", "other", "steps", List.of(Map.of("rate", 5, "seconds", 20))),
                Map.of(
                    "scenario",
                    "logs",
                    "phase",
                    1,
                    "steps",
                    List.of(Map.of("rate", 10, "seconds", 4)))));
    // the first send came 3 s into the profile, at 4 s into the run: the profile began at 1 s
    assertThat(TimeBands.steps(parameters, 4))
        .containsExactly(
            new Band("pause", 1, 4, Kind.STEP),
            new Band("50/s", 4, 14, Kind.STEP),
            new Band("10/s", 21, 25, Kind.STEP));
  }

  @Test
  void stairsFromRatesAndStepSeconds() {
    assertThat(TimeBands.steps(Map.of("rates", List.of(100, 200, 300), "stepSeconds", 20), 0.5))
        .extracting(Band::label, Band::fromSeconds, Band::toSeconds)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("100/s", 0.5, 20.5),
            org.assertj.core.groups.Tuple.tuple("200/s", 20.5, 40.5),
            org.assertj.core.groups.Tuple.tuple("300/s", 40.5, 60.5));
  }

  @Test
  void oneStepOrNothingKnownGivesNoBand() {
    assertThat(
            TimeBands.steps(
                Map.of(
                    "injection",
                    List.of(
                        Map.of(
                            "scenario",
                            "s",
                            "steps",
                            List.of(Map.of("rate", 200, "seconds", 30))))),
                0))
        .isEmpty();
    assertThat(TimeBands.steps(Map.of("rate", 200, "durationSeconds", 30), 0)).isEmpty();
    assertThat(
            TimeBands.steps(
                Map.of("injection", List.of(Map.of("scenario", "c", "model", "closed"))), 0))
        .isEmpty();
  }

  @Test
  void aRecordsBandsStartAtItsFirstIntervalWithRequestsSent() throws Exception {
    Path dir =
        SyntheticRecord.run()
            .parameter("rates", List.of(100, 200))
            .parameter("stepSeconds", 5)
            .write(base, "stairs");
    RunData run = RunData.load(dir);
    assertThat(TimeBands.steps(run)).extracting(Band::fromSeconds).containsExactly(0.0, 5.0);
  }

  @Test
  void aNodeDownUntilItsProbeFindsItUpIsOneFaultBandMergedAcrossInjectors() {
    long start = 1_000_000;
    List<io.fusillade.record.RunEvent> events =
        List.of(
            new io.fusillade.record.RunEvent(start + 11_000, "node-down", "db:5432", "refused"),
            new io.fusillade.record.RunEvent(start + 11_400, "node-down", "db:5432", "refused"),
            new io.fusillade.record.RunEvent(start + 17_200, "node-up", "db:5432", ""),
            new io.fusillade.record.RunEvent(start + 17_900, "node-up", "db:5432", ""),
            new io.fusillade.record.RunEvent(start + 20_000, "node-down", "db2:5432", "reset"),
            new io.fusillade.record.RunEvent(start + 21_000, "fault-injected", "x", ""));
    assertThat(TimeBands.faults(events, start, 30))
        .containsExactly(
            new Band("db:5432 down", 11.0, 17.2, TimeBands.Kind.FAULT),
            new Band("db2:5432 down", 20.0, 30.0, TimeBands.Kind.FAULT));
  }

  @Test
  void aStalledNodeIsABandUntilItAnswersBesideItsOutages() {
    long start = 1_000_000;
    List<io.fusillade.record.RunEvent> events =
        List.of(
            new io.fusillade.record.RunEvent(start + 4_000, "node-down", "db:5432", "refused"),
            new io.fusillade.record.RunEvent(start + 6_000, "node-up", "db:5432", ""),
            new io.fusillade.record.RunEvent(start + 10_000, "node-stalled", "db:5432", "1.0 s"),
            new io.fusillade.record.RunEvent(start + 13_000, "node-answering", "db:5432", ""));
    assertThat(TimeBands.faults(events, start, 30))
        .containsExactly(
            new Band("db:5432 down", 4.0, 6.0, TimeBands.Kind.FAULT),
            new Band("db:5432 stalled", 10.0, 13.0, TimeBands.Kind.FAULT));
  }
}
