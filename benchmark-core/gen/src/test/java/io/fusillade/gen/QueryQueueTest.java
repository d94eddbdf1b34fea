package io.fusillade.gen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The query queue holds each query by its count, shuffled by the seed, dealt out to users. */
class QueryQueueTest {

  private static final int[] COUNTS = {30, 20, 50};

  @Test
  void theQueueHoldsEachQueryAsOftenAsItsCount() {
    int[] order = QueryQueue.shuffled(COUNTS, 1).toArray();

    assertThat(order).hasSize(100);
    assertThat(Arrays.stream(order).filter(q -> q == 0).count()).isEqualTo(30);
    assertThat(Arrays.stream(order).filter(q -> q == 1).count()).isEqualTo(20);
    assertThat(Arrays.stream(order).filter(q -> q == 2).count()).isEqualTo(50);
  }

  @Test
  void theSameSeedGivesTheSameOrderAndAnotherSeedAnother() {
    int[] a = QueryQueue.shuffled(COUNTS, 1).toArray();

    assertThat(QueryQueue.shuffled(COUNTS, 1).toArray()).isEqualTo(a);
    assertThat(QueryQueue.shuffled(COUNTS, 2).toArray()).isNotEqualTo(a);
    int[] sorted = a.clone();
    Arrays.sort(sorted);
    assertThat(a).as("shuffled").isNotEqualTo(sorted);
  }

  @Test
  void usersShareTheWholeQueueInNearlyEqualParts() {
    QueryQueue queue = QueryQueue.shuffled(COUNTS, 9);
    List<Integer> dealt = new ArrayList<>();
    int users = 7;

    for (int user = 0; user < users; user++) {
      int[] share = queue.forUser(user, users);
      assertThat(share.length).isBetween(100 / users, 100 / users + 1);
      Arrays.stream(share).forEach(dealt::add);
    }
    assertThat(dealt)
        .containsExactlyInAnyOrderElementsOf(Arrays.stream(queue.toArray()).boxed().toList());
    assertThat(queue.forUser(0, users)[1]).isEqualTo(queue.get(users));
  }
}
