package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Injectors that split one test send, together, exactly the single injector's draws. */
class InjectorShareTest {

  /** A seeded sequence, as the workload's query mix draws one. */
  private static Supplier<Long> seeded() {
    Random random = new Random(42);
    return random::nextLong;
  }

  @Test
  void theInjectorsDrawsInterleaveIntoTheSingleInjectorsSequence() {
    int n = 3;
    int arrivals = 3_000;
    Supplier<Long> single = seeded();
    List<Long> alone = new ArrayList<>();
    for (int i = 0; i < arrivals; i++) {
      alone.add(InjectorShare.ALONE.next(single));
    }
    List<List<Long>> shares = new ArrayList<>();
    for (int index = 0; index < n; index++) {
      InjectorShare share = new InjectorShare(n, index, null);
      Supplier<Long> own = seeded(); // each injector a process of its own, with the same seed
      List<Long> sent = new ArrayList<>();
      for (int i = 0; i < arrivals / n; i++) {
        sent.add(share.next(own));
      }
      shares.add(sent);
    }
    List<Long> interleaved = new ArrayList<>();
    for (int i = 0; i < arrivals / n; i++) {
      for (int index = 0; index < n; index++) {
        interleaved.add(shares.get(index).get(i));
      }
    }
    assertThat(interleaved).isEqualTo(alone);
    assertThat(new InjectorShare(n, 1, null).rate(900)).isEqualTo(300);
  }

  @Test
  void anIndexOutsideTheCountOrAStartThatIsNoInstantIsRefused() {
    assertThatThrownBy(() -> new InjectorShare(3, 3, null))
        .isInstanceOf(FusilladeException.class)
        .hasMessage("--injector-index counts from 0 to --injectors - 1 (2), got 3");
    assertThatThrownBy(() -> InjectorShare.instant("tomorrow"))
        .hasMessageContaining("\"tomorrow\" is not an instant such as 2026-11-25T20:30:00Z");
    assertThat(new InjectorShare(2, 0, Instant.parse("2026-11-25T20:30:00Z")).parameters())
        .containsEntry("injectors", 2)
        .containsEntry("injectorIndex", 0)
        .containsEntry("startAt", "2026-11-25T20:30:00Z");
    assertThat(InjectorShare.ALONE.parameters()).isEmpty();
  }

  @Test
  void theMarginIsTheTimeLeftBeforeTheCommonStartAndNeverNegative() {
    Instant soon = Instant.now().plusSeconds(10);
    assertThat(new InjectorShare(2, 1, soon).untilStart(null).toMillis())
        .isBetween(8_000L, 10_000L);
    Instant past = Instant.now().minusSeconds(5);
    assertThat(new InjectorShare(2, 1, past).untilStart(null)).isZero();
    assertThat(new InjectorShare(2, 1, past).awaitStart().toMillis()).isBetween(5_000L, 7_000L);
    assertThat(InjectorShare.ALONE.untilStart(null)).isZero();
  }
}
