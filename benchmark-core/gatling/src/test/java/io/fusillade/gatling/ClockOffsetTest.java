package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/** Cristian's algorithm: a reference clock's offset from ours, and a start read on it. */
class ClockOffsetTest {
  /** A clock 250 ms ahead of this one whose answers take 2 ms to come back. */
  private static long aheadAndSlow() throws InterruptedException {
    Thread.sleep(1);
    long micros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now()) + 250_000;
    Thread.sleep(1);
    return micros;
  }

  @Test
  void theOffsetIsTheReferencesTimeAtTheMiddleOfTheRoundTrip() throws Exception {
    ClockOffset clock = ClockOffset.measure(ClockOffsetTest::aheadAndSlow, "ahead");
    // the reading is 1 ms into a round trip of 2 ms or more: at its middle, give or take
    assertThat(clock.offsetMicros()).isBetween(250_000L - 5_000, 250_000L + 5_000);
    assertThat(clock.uncertaintyMicros()).isBetween(1_000L, 50_000L);
    assertThat(clock.referenceMillis(1_000_000)).isBetween(1_000_245L, 1_000_255L);
    assertThat(clock.parameters())
        .containsKeys("clockOffsetMs", "clockUncertaintyMs")
        .containsEntry("clockReference", "ahead");
  }

  @Test
  void aStartIsAwaitedOnTheReferencesClock() {
    // the reference is 2 s ahead: its 1.5 s from now came half a second ago
    ClockOffset ahead = new ClockOffset(2_000_000, 100, "ahead");
    InjectorShare share =
        new InjectorShare(2, 0, Instant.now().plusMillis(1_500).truncatedTo(ChronoUnit.MILLIS));
    long start = System.nanoTime();
    long lateMs = share.awaitStart(ahead).toMillis();
    assertThat(System.nanoTime() - start).isLessThan(1_000_000_000L); // no wait
    assertThat(lateMs).isBetween(400L, 1_000L);
  }
}
