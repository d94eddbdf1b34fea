package io.fusillade.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The controller's arithmetic against a simulated system: it serves up to its capacity a second
 * (which may change at a given second), and a window fails "rate >= 95% of target" when it served
 * less than 95% of the rate sent, as a system past its capacity does.
 */
class AdaptiveControllerTest {
  private static final AdaptiveSettings SETTINGS =
      AdaptiveSettings.DEFAULTS.withStart(50).withBounds(1, 100_000);

  /** The rates of {@code seconds} seconds against a system of {@code capacity} at each second. */
  private static List<Double> run(
      AdaptiveSettings settings, int seconds, IntToDoubleFunction capacity) {
    AdaptiveController controller = new AdaptiveController(settings);
    List<Double> rates = new ArrayList<>();
    int window = settings.windowSeconds();
    for (int t = 0; t < seconds; t++) {
      rates.add(controller.rate());
      int from = Math.max(0, rates.size() - window);
      double sent = 0;
      double served = 0;
      for (int s = from; s < rates.size(); s++) {
        sent += rates.get(s);
        served += Math.min(rates.get(s), capacity.applyAsDouble(s));
      }
      int n = rates.size() - from;
      sent /= n;
      served /= n;
      controller.next(
          served < 0.95 * sent
              ? AdaptiveController.Window.failing(served, "rate below 95% of target")
              : AdaptiveController.Window.passing(served));
    }
    return rates;
  }

  private static double median(List<Double> rates, int from, int to) {
    return AdaptiveCurve.median(
        rates.subList(from, to).stream().mapToDouble(Double::doubleValue).toArray());
  }

  /** The first second from which every 10-s median is within 15% of {@code capacity}. */
  private static int followedAt(List<Double> rates, int from, double capacity) {
    int last = from;
    for (int t = from; t + 10 <= rates.size(); t++) {
      double m = median(rates, t, t + 10);
      if (Math.abs(m - capacity) > 0.15 * capacity) {
        last = t + 1;
      }
    }
    return last - from;
  }

  @ParameterizedTest(name = "{0}/s then {1}/s at 60 s")
  @CsvSource({"200, 100", "100, 200", "1000, 300", "300, 900", "20, 40", "5000, 2500"})
  void followsACapacityThatChangesWithinEightSeconds(double before, double after) {
    List<Double> rates = run(SETTINGS, 120, t -> t < 60 ? before : after);
    assertThat(median(rates, 30, 60))
        .isCloseTo(before, org.assertj.core.data.Percentage.withPercentage(15));
    assertThat(median(rates, 90, 120))
        .isCloseTo(after, org.assertj.core.data.Percentage.withPercentage(15));
    int followed = followedAt(rates, 60, after);
    assertThat(followed).as("seconds to follow " + before + " -> " + after).isLessThanOrEqualTo(8);
  }

  @Test
  void aHalvedCapacityIsFollowedWithinFiveSeconds() {
    List<Double> rates = run(SETTINGS, 120, t -> t < 60 ? 400 : 200);
    // within the first seconds after the change, the rate is at most the new capacity's 1.1x
    int below = 60;
    while (rates.get(below) > 200 * 1.1) {
      below++;
    }
    assertThat(below - 60).isLessThanOrEqualTo(5);
  }

  @Test
  void aNodeLostShowsTheDropAndTheRecovery() {
    // every request fails from 40 s to 60 s (nothing served), then the capacity is back
    List<Double> rates = run(SETTINGS, 120, t -> t >= 40 && t < 60 ? 0 : 300);
    assertThat(median(rates, 20, 40))
        .isCloseTo(300, org.assertj.core.data.Percentage.withPercentage(15));
    assertThat(rates.get(55)).isLessThan(30); // dropped to a tenth within 15 s
    assertThat(followedAt(rates, 60, 300)).isLessThanOrEqualTo(25);
  }

  @Test
  void neverLeavesItsBounds() {
    AdaptiveSettings bounded = SETTINGS.withBounds(20, 150);
    List<Double> rates = run(bounded, 100, t -> t < 50 ? 1000 : 5);
    assertThat(rates).allSatisfy(r -> assertThat(r).isBetween(20.0, 150.0));
    assertThat(rates.get(45)).isEqualTo(150.0);
    assertThat(rates.get(99)).isEqualTo(20.0);
  }

  @Test
  void stepsAreBounded() {
    List<Double> rates = run(SETTINGS, 200, t -> t < 100 ? 2000 : 10);
    for (int i = 1; i < rates.size(); i++) {
      double ratio = rates.get(i) / rates.get(i - 1);
      assertThat(ratio).isBetween(0.5, AdaptiveController.SLOW_START);
    }
  }

  @Test
  void anUnhealthyInjectorHoldsOnceThenCapsTheRateUntilItIsHealthyForThirtyWindows() {
    AdaptiveController controller = warmedUp(SETTINGS.withStart(100));
    double rate = controller.rate();
    AdaptiveController.Decision first =
        controller.next(AdaptiveController.Window.injector(rate, "injector lag p99 80 ms > 50 ms"));
    assertThat(first.action()).isEqualTo(AdaptiveController.Action.INJECTOR);
    assertThat(first.rate()).isEqualTo(rate);
    // the window after it shares a second with it: held, not a second strike
    assertThat(
            controller
                .next(AdaptiveController.Window.injector(rate, "injector lag p99 80 ms > 50 ms"))
                .action())
        .isEqualTo(AdaptiveController.Action.HOLD);
    AdaptiveController.Decision second =
        controller.next(AdaptiveController.Window.injector(rate, "injector lag p99 90 ms > 50 ms"));
    assertThat(second.rate()).isEqualTo(rate * 0.95);
    assertThat(controller.injectorCeiling()).isEqualTo(rate * 0.95);
    // however well the system does afterwards, the rate stays under the injector's ceiling...
    for (int i = 0; i < AdaptiveController.CEILING_MEMORY_SECONDS; i++) { // a hold, 29 more
      controller.next(AdaptiveController.Window.passing(controller.rate()));
      assertThat(controller.rate()).isLessThanOrEqualTo(rate * 0.95);
    }
    // ...until the injector has vouched for 30 windows in a row: then it probes again
    controller.next(AdaptiveController.Window.passing(controller.rate()));
    assertThat(controller.rate()).isGreaterThan(rate * 0.95);
    assertThat(controller.injectorCeiling()).isNull();
    // and one unhealthy window is held, never increased on
    double probing = controller.rate();
    assertThat(controller.next(AdaptiveController.Window.injector(probing, "lag")).rate())
        .isEqualTo(probing);
  }

  @Test
  void anUnhealthyInjectorWhileTheSystemFailsIsADecreaseNeverAHold() {
    AdaptiveController controller = warmedUp(SETTINGS.withStart(200));
    AdaptiveController.Decision d =
        controller.next(
            new AdaptiveController.Window(
                100, List.of("rate 100/s < 95% of target"), "injector lag p99 25 ms > 20 ms"));
    assertThat(d.action()).isEqualTo(AdaptiveController.Action.DOWN);
    assertThat(d.rate()).isEqualTo(100.0); // half the rate at most: 0.95 x 100 served is less
    assertThat(d.why()).startsWith("injector: injector lag p99 25 ms > 20 ms; rate 100/s");
  }

  @Test
  void theWarmUpIsNotJudged() {
    AdaptiveController controller = new AdaptiveController(SETTINGS.withStart(100));
    for (int i = 0; i < AdaptiveController.WARM_UP_SECONDS + 1; i++) {
      assertThat(controller.next(AdaptiveController.Window.failing(10, "errors 50%")).action())
          .isEqualTo(AdaptiveController.Action.HOLD);
    }
    assertThat(controller.next(AdaptiveController.Window.passing(100)).rate()).isEqualTo(150.0);
  }

  /** A controller past its warm-up (held at its start). */
  private static AdaptiveController warmedUp(AdaptiveSettings settings) {
    AdaptiveController controller = new AdaptiveController(settings);
    for (int i = 0; i < AdaptiveController.WARM_UP_SECONDS + settings.windowSeconds() - 1; i++) {
      assertThat(controller.next(AdaptiveController.Window.passing(settings.start())).action())
          .isEqualTo(AdaptiveController.Action.HOLD);
    }
    return controller;
  }

  @Test
  void aDecreaseLandsBelowTheServedRateAndHoldsForAWindowAndASecond() {
    AdaptiveController controller = warmedUp(SETTINGS.withStart(1000));
    AdaptiveController.Decision down =
        controller.next(AdaptiveController.Window.failing(700, "p99 40 ms >= 20 ms"));
    assertThat(down.action()).isEqualTo(AdaptiveController.Action.DOWN);
    assertThat(down.rate()).isEqualTo(665.0); // 0.95 x served
    // the next windows still hold a second of the old rate, or its backlog: held whatever they say
    for (int i = 0; i < 2; i++) {
      AdaptiveController.Decision held =
          controller.next(AdaptiveController.Window.failing(600, "p99 40 ms >= 20 ms"));
      assertThat(held.action()).isEqualTo(AdaptiveController.Action.HOLD);
      assertThat(held.rate()).isEqualTo(665.0);
    }
    // a window of nothing served halves the rate, no more
    assertThat(controller.next(AdaptiveController.Window.failing(0, "errors 100%")).rate())
        .isEqualTo(332.5);
  }

  @Test
  void settingsOutOfRangeAreNamed() {
    assertThatThrownBy(() -> SETTINGS.withSteps(0, 0.9)).hasMessageContaining("adaptive increase");
    assertThatThrownBy(() -> SETTINGS.withSteps(0.1, 1)).hasMessageContaining("adaptive decrease");
    assertThatThrownBy(() -> SETTINGS.withWindow(Duration.ofMillis(100)))
        .hasMessageContaining("adaptive window");
    assertThatThrownBy(() -> SETTINGS.withSlo(List.of("p99 under 5")))
        .hasMessageContaining("p99 under 5");
  }

  @Test
  void theCurveSettlesOnTheMedianOfEachMinute() {
    AdaptiveCurve curve = new AdaptiveCurve();
    for (int t = 0; t < 145; t++) {
      double rate = t < 60 ? 100 + (t % 3) : t < 120 ? 50 : 80;
      curve.add(t + 1, rate, rate, 10, 0, "up");
    }
    assertThat(curve.perMinute()).containsExactly(101.0, 50.0); // the last 25 s: left out
    assertThat(curve.settledRate()).isEqualTo(50.0); // 35 s at 50, 25 s at 80: the median
    assertThat(curve.toMap()).containsEntry("settledRate", 50.0);
  }
}
