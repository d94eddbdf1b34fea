package io.fusillade.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The search's arithmetic: a system that passes every rate up to its capacity, and no more. */
class LimitSearchTest {
  private static final LimitSettings SETTINGS = LimitSettings.DEFAULTS.withFrom(50);

  /** Runs a search against a system judged by {@code passes}, the injector always fine. */
  private static LimitResult search(LimitSettings settings, DoublePredicate passes) {
    return search(settings, passes, rate -> false);
  }

  private static LimitResult search(
      LimitSettings settings, DoublePredicate passes, DoublePredicate injectorLags) {
    return search(settings, passes, injectorLags, Double.NaN);
  }

  /**
   * @param capacity what a failing step completes per second (NaN: 80% of its rate, a system that
   *     says nothing about its capacity)
   */
  private static LimitResult search(
      LimitSettings settings,
      DoublePredicate passes,
      DoublePredicate injectorLags,
      double capacity) {
    LimitSearch search = new LimitSearch(settings);
    double rate = search.rate();
    for (int i = 0; i < 100; i++) {
      boolean ok = passes.test(rate);
      StepResult step =
          new StepResult(
              i + 1,
              search.phase(),
              i * 30,
              i * 30 + 30,
              rate,
              ok ? rate : Double.isNaN(capacity) ? rate * 0.8 : Math.min(rate, capacity),
              5,
              ok ? 10 : 500,
              0,
              null,
              injectorLags.test(rate) ? "injector lag p99 45 ms > 20 ms" : null,
              ok ? List.of() : List.of("p99 500 ms >= 50 ms"));
      OptionalDouble next = search.next(step);
      if (next.isEmpty()) {
        return search.result();
      }
      rate = next.getAsDouble();
    }
    throw new AssertionError("the search did not end");
  }

  @ParameterizedTest
  @ValueSource(doubles = {137, 400, 1_600, 5_321, 77_000})
  void findsACapacityWithinItsResolutionAndConfirmsIt(double capacity) {
    // A saturated system completes its capacity, whatever it is sent: the search goes there.
    LimitResult result = search(SETTINGS, rate -> rate <= capacity, rate -> false, capacity);
    assertFound(result, capacity);
    int doublings = (int) Math.ceil(Math.log(capacity / 50) / Math.log(2));
    assertThat(result.steps()).hasSizeLessThanOrEqualTo(doublings + 5);
  }

  @Test
  void aStepJustAboveTheKneeIsFollowedByOneResolutionBelowIt() {
    // 1,600/s fails though 1,560/s (97.5%) completed: 1,524/s is tried next, passes, and closes
    // the bracket: 5 steps of ramp, one probe, the confirmation.
    LimitResult result =
        search(SETTINGS.withFrom(100), rate -> rate <= 1_560, rate -> false, 1_560);
    assertThat(result.verdict()).isEqualTo(LimitResult.Verdict.FOUND);
    assertThat(result.limit()).isBetween(1_600 / 1.05, 1_560.0);
    assertThat(result.steps()).hasSize(7);
  }

  @ParameterizedTest
  @ValueSource(doubles = {137, 400, 1_600, 5_321, 77_000})
  void aSystemThatSaysNothingOfItsCapacityIsBisected(double capacity) {
    // Failing steps complete 80% of any rate: no knee to go to, so halving (in ratio).
    assertFound(search(SETTINGS, rate -> rate <= capacity), capacity);
  }

  private static void assertFound(LimitResult result, double capacity) {
    assertThat(result.verdict()).isEqualTo(LimitResult.Verdict.FOUND);
    assertThat(result.limit()).isLessThanOrEqualTo(capacity).isGreaterThan(capacity / 1.05);
    assertThat(result.confirmation().phase()).isEqualTo("confirm");
    assertThat(result.confirmation().target()).isEqualTo(result.limit());
    // Geometric ramp, then bisection: a few steps per factor of two, not one per 5%.
    int doublings = (int) Math.ceil(Math.log(capacity / 50) / Math.log(2));
    assertThat(result.steps()).hasSizeLessThanOrEqualTo(doublings + 9);
  }

  @Test
  void rampsDownWhenTheFirstRateAlreadyFails() {
    LimitResult result = search(SETTINGS.withFrom(1000), rate -> rate <= 90);
    assertThat(result.verdict()).isEqualTo(LimitResult.Verdict.FOUND);
    assertThat(result.limit()).isBetween(90 / 1.05, 90.0);
    assertThat(result.steps().get(1).target()).isEqualTo(500);
  }

  @Test
  void aSystemThatSustainsTheMaximumIsAboveIt() {
    LimitSettings capped =
        new LimitSettings(
            100,
            1000,
            2,
            Duration.ofSeconds(30),
            0.2,
            0.05,
            Duration.ofSeconds(30),
            LimitSettings.DEFAULT_SLO,
            100,
            40);
    LimitResult result = search(capped, rate -> true);
    assertThat(result.verdict()).isEqualTo(LimitResult.Verdict.ABOVE_MAX);
    assertThat(result.limit()).isNull();
    assertThat(result.sustained()).isEqualTo(1000);
    assertThat(result.steps())
        .extracting(StepResult::target)
        .containsExactly(100.0, 200.0, 400.0, 800.0, 1000.0);
  }

  @Test
  void aSearchOutOfStepsBeforeItsResolutionSaysSoAndWhatWasSustained() {
    LimitSettings two =
        new LimitSettings(
            100,
            LimitSettings.DEFAULTS.max(),
            2,
            Duration.ofSeconds(30),
            0.2,
            0.05,
            Duration.ofSeconds(30),
            LimitSettings.DEFAULT_SLO,
            100,
            2);
    LimitResult result = search(two, rate -> rate <= 1_000);
    assertThat(result.verdict()).isEqualTo(LimitResult.Verdict.OUT_OF_STEPS);
    assertThat(result.limit()).isNull();
    assertThat(result.steps()).extracting(StepResult::target).containsExactly(100.0, 200.0);
    assertThat(result.sustained()).isEqualTo(200);
  }

  @Test
  void aSaturatedInjectorIsNeverReportedAsTheSystemsLimit() {
    LimitResult result = search(SETTINGS, rate -> rate <= 5000, rate -> rate >= 1600);
    assertThat(result.verdict()).isEqualTo(LimitResult.Verdict.INJECTOR_LIMIT);
    assertThat(result.limit()).isNull();
    assertThat(result.sustained()).isEqualTo(800);
    // The first step the injector failed is tried once more, in case it was a pause.
    assertThat(result.steps()).extracting(StepResult::target).endsWith(800.0, 1600.0, 1600.0);
    assertThat(result.describe())
        .startsWith("the injector is the limit, not the system")
        .contains("1,600/s", "injector lag p99 45 ms", "at least 800/s");
  }

  @Test
  void anInjectorHiccupAtOneStepIsRetriedAndTheSearchGoesOn() {
    List<Double> hiccups = new ArrayList<>(List.of(200.0));
    LimitResult result = search(SETTINGS, rate -> rate <= 400, rate -> hiccups.remove(rate));
    assertThat(result.verdict()).isEqualTo(LimitResult.Verdict.FOUND);
    assertThat(result.steps()).extracting(StepResult::target).startsWith(50.0, 100.0, 200.0, 200.0);
  }

  @Test
  void aConfirmationThatFailsTriesOneResolutionLowerThenGivesUp() {
    List<Double> tried = new ArrayList<>();
    // Passes every rate up to 400 once; a second look at anything above 300 fails.
    LimitResult result =
        search(
            SETTINGS,
            rate -> {
              boolean seen = tried.contains(rate);
              tried.add(rate);
              return rate <= 400 && !(seen && rate > 300) && !(rate > 300 && tried.size() > 8);
            });
    assertThat(result.verdict()).isEqualTo(LimitResult.Verdict.UNSTABLE);
    assertThat(result.limit()).isNull();
    List<StepResult> confirms =
        result.steps().stream().filter(s -> s.phase().equals("confirm")).toList();
    assertThat(confirms).hasSize(2);
    assertThat(confirms.get(1).target()).isCloseTo(confirms.get(0).target() / 1.05, within());
  }

  @Test
  void noRateDownToOnePerSecondIsBelowTheMinimum() {
    LimitResult result = search(SETTINGS.withFrom(8), rate -> false);
    assertThat(result.verdict()).isEqualTo(LimitResult.Verdict.BELOW_MIN);
    assertThat(result.steps()).extracting(StepResult::target).containsExactly(8.0, 4.0, 2.0, 1.0);
  }

  @Test
  void theResultReadsBackFromItsJsonForm() {
    LimitResult result = search(SETTINGS, rate -> rate <= 400);
    LimitResult back = LimitResult.fromMap(result.toMap());
    assertThat(back.verdict()).isEqualTo(result.verdict());
    assertThat(back.limit()).isEqualTo(result.limit());
    assertThat(back.steps()).hasSameSizeAs(result.steps());
    assertThat(back.confirmation().achieved()).isEqualTo(result.confirmation().achieved());
    assertThat(back.describe()).isEqualTo(result.describe());
  }

  @Test
  void settingsOutOfRangeNameTheSetting() {
    assertThatThrownBy(() -> LimitSettings.DEFAULTS.withFrom(0))
        .hasMessageContaining("limit from must be above 0");
    assertThatThrownBy(() -> LimitSettings.DEFAULTS.withStep(Duration.ofSeconds(1)))
        .hasMessageContaining("limit step must be at least 3s");
    assertThatThrownBy(() -> LimitSettings.DEFAULTS.withSlo(List.of("p99 below 50ms")))
        .hasMessageContaining("limit objective 'p99 below 50ms' is not one of");
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1.0);
  }

  @Test
  void aStepWhoseDiskFilledEndsTheSearchEvenWithNoRequestCompletedOrTheInjectorLagging() {
    LimitSlo slo = LimitSlo.parse(List.of("errors < 0.1%", "disk not full"));
    org.HdrHistogram.Histogram none = io.fusillade.record.Latencies.newHistogram();
    // writes to a broker whose disk filled wait out their delivery timeout: none completes
    StepMeasure hung =
        new StepMeasure(2000, 8, 0, 0, 0, none, 58.1, 20, null, null, null, 100.0, 0, null);
    assertThat(slo.failures(hung)).containsExactly("no request completed", "disk full: 100% used");
    StepMeasure idle =
        new StepMeasure(2000, 8, 0, 0, 0, none, null, 20, null, null, null, 40.0, 0, null);
    assertThat(slo.failures(idle)).containsExactly("no request completed");

    LimitSearch search = new LimitSearch(SETTINGS);
    search.next(StepResult.judge(1, "ramp", 0, 10, pass(50), slo, List.of()));
    StepResult full = StepResult.judge(2, "ramp", 10, 20, hung, slo, List.of());
    assertThat(full.injector()).as("the injector lagged too").isNotNull();
    assertThat(search.next(full)).isEmpty();
    LimitResult result = search.result();
    assertThat(result.verdict()).isEqualTo(LimitResult.Verdict.DISK_FULL);
    assertThat(result.limit()).isEqualTo(50.0);
    assertThat(result.describe())
        .isEqualTo(
            "maximum rate that kept the disk below full 50/s (not confirmed: the disk filled at"
                + " 2,000/s, and a server whose disk fills stops: no request completed, disk full:"
                + " 100% used)");
  }

  private static StepMeasure pass(double rate) {
    org.HdrHistogram.Histogram ok = io.fusillade.record.Latencies.newHistogram();
    ok.recordValueWithCount(5_000, Math.round(rate * 8));
    return new StepMeasure(
        rate, 8, Math.round(rate * 8), 0, 0, ok, 1.0, 20, null, null, null, 40.0, 0, null);
  }
}
