package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rule the rate tests judge a run by, on made-up runs of one-second intervals at a target of
 * 1,000/s: what it lets pass at start-up, and the wrong rates it still catches.
 */
class ArrivalRatesTest {
  /** Whole one-second intervals at these rates, the first beginning 1.3 s into the run. */
  private static ArrivalRates run(double... perSecond) {
    List<ArrivalRates.Interval> intervals = new ArrayList<>();
    for (int i = 0; i < perSecond.length; i++) {
      intervals.add(new ArrivalRates.Interval(perSecond[i], 1.3 + i, 2.3 + i));
    }
    return new ArrivalRates(intervals);
  }

  /** Ten seconds at 1,000/s with the given start-up seconds in front. */
  private static ArrivalRates startingWith(double... startUp) {
    double[] all = new double[startUp.length + 10];
    System.arraycopy(startUp, 0, all, 0, startUp.length);
    for (int i = startUp.length; i < all.length; i++) {
      all[i] = i % 2 == 0 ? 998 : 1002;
    }
    return run(all);
  }

  @Test
  void aSteadyRunPasses() {
    assertThatCode(() -> startingWith().assertHeld(1000, 0.10)).doesNotThrowAnyException();
  }

  @Test
  void oneStartUpSecondAt1105PassesAsMeasuredOnALoadedMachine() {
    ArrivalRates measured = startingWith(1000, 1105, 1001, 999, 1000);
    assertThatCode(() -> measured.assertHeld(1000, 0.10)).doesNotThrowAnyException();
  }

  @Test
  void theSameSecondAfterStartUpFails() {
    ArrivalRates late = startingWith(1000, 1000, 1000, 1000, 1000, 1000, 1105);
    assertThatThrownBy(() -> late.assertHeld(1000, 0.10))
        .hasMessageContaining("arrivals/s in the interval ending 8.3 s into the run");
  }

  @Test
  void aStartUpBacklogSentAtOnceFails() {
    ArrivalRates backlog = startingWith(1000, 500, 1500, 1000, 1000);
    assertThatThrownBy(() -> backlog.assertHeld(1000, 0.10))
        .hasMessageContaining("arrivals/s in the start-up interval ending 3.3 s into the run");
  }

  @Test
  void aStartUpOffTargetThroughoutFailsItsMean() {
    ArrivalRates high = startingWith(1150, 1150, 1150, 1150, 1150);
    assertThatThrownBy(() -> high.assertHeld(1000, 0.10))
        .hasMessageContaining("arrivals/s over the 5 start-up intervals, to 6.3 s into the run");
  }

  @Test
  void intervalsLeftOutAreNotJudgedAndTheStartUpStaysTheRunsOwn() {
    ArrivalRates stalled = startingWith(1000, 1000, 1000, 1000, 1000, 300, 300);
    assertThatThrownBy(() -> stalled.assertHeld(1000, 0.10)).isInstanceOf(AssertionError.class);
    ArrivalRates rest = stalled.without(i -> i.perSecond() < 500);
    assertThatCode(() -> rest.assertHeld(1000, 0.10)).doesNotThrowAnyException();
    // Leaving out the first intervals does not move the start-up: the next ones are steady.
    ArrivalRates afterStartUp = startingWith(1000, 1000, 1000, 1000, 1000, 1150);
    ArrivalRates judged = afterStartUp.without(i -> i.startedAt() < 5);
    assertThatThrownBy(() -> judged.assertHeld(1000, 0.10))
        .hasMessageContaining("arrivals/s in the interval ending 7.3 s into the run");
  }
}
