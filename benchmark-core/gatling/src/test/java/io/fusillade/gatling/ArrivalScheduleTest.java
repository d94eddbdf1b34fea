package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.fusillade.gatling.ArrivalSchedule.Segment;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Arrival n is due when the integral of the rate reaches n: the spec of the open model's times. */
class ArrivalScheduleTest {
  private static Duration s(double seconds) {
    return Duration.ofNanos((long) (seconds * 1e9));
  }

  @Test
  void aConstantRateSendsEveryOneOverTheRateFromTheStart() {
    ArrivalSchedule schedule =
        new ArrivalSchedule(List.of(Segment.constant(1000, Duration.ofSeconds(30))));
    assertThat(schedule.count()).isEqualTo(30_000);
    assertThat(schedule.seconds()).isEqualTo(30.0);
    ArrivalSchedule.Cursor cursor = schedule.cursor();
    assertThat(cursor.at(0)).isZero();
    assertThat(cursor.at(1)).isCloseTo(0.001, within(1e-12));
    assertThat(cursor.at(29_999)).isCloseTo(29.999, within(1e-9));
    assertThat(cursor.at(30_000)).isEqualTo(-1);
  }

  @Test
  void aRampSendsEverCloserAndAHoldAfterItGoesOnAtItsRate() {
    // 0 to 100/s over 2 s (100 arrivals: 25 t² of them by t), then 100/s for 3 s
    ArrivalSchedule schedule =
        new ArrivalSchedule(
            List.of(new Segment(0, 100, Duration.ofSeconds(2)), Segment.constant(100, s(3))));
    assertThat(schedule.count()).isEqualTo(400);
    ArrivalSchedule.Cursor cursor = schedule.cursor();
    assertThat(cursor.at(1)).isCloseTo(Math.sqrt(1 / 25.0), within(1e-9));
    assertThat(cursor.at(50)).isCloseTo(Math.sqrt(2), within(1e-9));
    assertThat(cursor.at(100)).isCloseTo(2.0, within(1e-9));
    assertThat(cursor.at(101)).isCloseTo(2.01, within(1e-9));
    assertThat(cursor.at(399)).isCloseTo(4.99, within(1e-9));
  }

  @Test
  void aRampDownSendsEverFurtherApartUntilItsEnd() {
    // 100/s down to 0 over 2 s: 100 t - 25 t² arrivals by t, 100 in all
    ArrivalSchedule schedule = new ArrivalSchedule(List.of(new Segment(100, 0, s(2))));
    assertThat(schedule.count()).isEqualTo(100);
    ArrivalSchedule.Cursor cursor = schedule.cursor();
    double previous = -1;
    double gap = 0;
    for (int n = 0; n < 100; n++) {
      double t = cursor.at(n);
      assertThat(100 * t - 25 * t * t).isCloseTo(n, within(1e-6));
      if (previous >= 0) {
        assertThat(t - previous).isGreaterThan(gap);
        gap = t - previous;
      }
      previous = t;
    }
  }

  @Test
  void aPauseAtRateZeroSendsNothingAndTheNextArrivalComesAfterIt() {
    ArrivalSchedule schedule =
        new ArrivalSchedule(
            List.of(
                Segment.constant(100, s(1)),
                Segment.constant(0, s(5)),
                Segment.constant(100, s(1))));
    assertThat(schedule.count()).isEqualTo(200);
    ArrivalSchedule.Cursor cursor = schedule.cursor();
    assertThat(cursor.at(99)).isCloseTo(0.99, within(1e-9));
    assertThat(cursor.at(100)).isCloseTo(6.0, within(1e-9));
    assertThat(cursor.at(199)).isCloseTo(6.99, within(1e-9));
  }

  @Test
  void lanesThatTakeEveryLthArrivalTogetherSendEachOnce() {
    ArrivalSchedule schedule =
        new ArrivalSchedule(
            List.of(
                new Segment(10, 300, s(3.3)),
                Segment.constant(300, s(1)),
                new Segment(300, 7, s(2))));
    long sent = 0;
    for (int lane = 0; lane < 3; lane++) {
      ArrivalSchedule.Cursor cursor = schedule.cursor();
      for (long n = lane; cursor.at(n) >= 0; n += 3) {
        sent++;
      }
    }
    assertThat(sent).isEqualTo(schedule.count());
  }

  @Test
  void aRateIsFiniteAndNotNegative() {
    assertThatThrownBy(() -> Segment.constant(-1, s(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Segment.constant(Double.NaN, s(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Segment(1, 1, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
