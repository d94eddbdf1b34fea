package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a node that answers nothing counts as stalled, on a clock the test moves. */
class NodeStallsTest {
  private static final long MS = 1_000_000;
  private final List<String> events = new ArrayList<>();
  private final NodeStalls stalls =
      new NodeStalls(
          List.of("a:1", "b:2"),
          (kind, target, detail) -> events.add(kind + " " + target + " " + detail));

  @Test
  void anIdleNodeIsNeverStalled() {
    assertThat(stalls.isStalled(0, 60_000 * MS)).isFalse();
    stalls.sent(0, 0);
    stalls.ended(0, 0, 2 * MS, true);
    assertThat(stalls.isStalled(0, 60_000 * MS)).isFalse();
    assertThat(events).isEmpty();
  }

  @Test
  void aNodeHoldingRequestsWithoutAnAnswerForASecondIsStalledUntilItAnswers() {
    // a node that answers in 2 ms, then stops answering at 100 ms
    for (long t = 0; t < 100; t += 10) {
      stalls.sent(0, t * MS);
      stalls.ended(0, t * MS, (t + 2) * MS, true);
    }
    stalls.sent(0, 100 * MS);
    stalls.sent(0, 150 * MS);
    assertThat(stalls.isStalled(0, 1_000 * MS)).as("0.9 s of silence").isFalse();
    assertThat(stalls.isStalled(0, 1_200 * MS)).as("1.1 s of silence").isTrue();
    assertThat(stalls.isStalled(0, 1_300 * MS)).isTrue();
    assertThat(stalls.isStalled(1, 1_300 * MS)).as("the other node").isFalse();
    assertThat(events).containsExactly("node-stalled a:1 no answer for 1.1 s, 2 requests waiting");

    // the client's own timeout of one request is no answer: the node is still stalled
    stalls.ended(0, 150 * MS, 3_000 * MS, false);
    assertThat(stalls.isStalled(0, 3_100 * MS)).as("one request still waits").isTrue();
    assertThat(events).hasSize(1);
    stalls.ended(0, 100 * MS, 5_100 * MS, true);
    assertThat(stalls.isStalled(0, 5_200 * MS)).as("it answered").isFalse();
    assertThat(events).last().isEqualTo("node-answering a:1 stalled for 5.0 s");
  }

  @Test
  void aNodeOfLongQueriesHasALongerThreshold() {
    // each answer takes 400 ms: ten times that is 4 s of silence before a stall
    for (long t = 0; t < 4_000; t += 400) {
      stalls.sent(1, t * MS);
      stalls.ended(1, t * MS, (t + 400) * MS, true);
    }
    stalls.sent(1, 4_400 * MS);
    assertThat(stalls.isStalled(1, 7_000 * MS)).isFalse();
    assertThat(stalls.isStalled(1, 8_500 * MS)).isTrue();
  }
}
