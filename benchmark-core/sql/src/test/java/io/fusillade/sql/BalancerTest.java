package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

class BalancerTest {
  private static final IntPredicate ALL_HEALTHY = node -> true;

  private static int[] spread(Balancer balancer, int nodes, int requests, IntPredicate healthy) {
    int[] counts = new int[nodes];
    for (int i = 0; i < requests; i++) {
      counts[balancer.pick(i, healthy)]++;
    }
    return counts;
  }

  @Test
  void roundRobinTakesTheNodesInTurn() {
    Balancer balancer = Balancer.roundRobin(3);
    assertThat(List.of(pick(balancer), pick(balancer), pick(balancer), pick(balancer)))
        .containsExactly(0, 1, 2, 0);
    assertThat(spread(Balancer.roundRobin(3), 3, 3000, ALL_HEALTHY))
        .containsExactly(1000, 1000, 1000);
  }

  @Test
  void weightsGiveTheirShareSmoothlyInterleaved() {
    assertThat(Balancer.smoothSchedule(new int[] {2, 1, 1})).containsExactly(0, 1, 2, 0);
    assertThat(spread(Balancer.weightedRoundRobin(new int[] {2, 1, 1}), 3, 4000, ALL_HEALTHY))
        .containsExactly(2000, 1000, 1000);
    assertThat(Balancer.smoothSchedule(new int[] {5, 1})).containsExactly(0, 0, 0, 1, 0, 0);
  }

  @Test
  void randomSpreadsEvenly() {
    int[] counts = spread(Balancer.random(4), 4, 40_000, ALL_HEALTHY);
    for (int count : counts) {
      assertThat(count).isBetween(9_500, 10_500);
    }
  }

  @Test
  void aDownNodeIsSkippedAndItsShareGoesToTheOthers() {
    IntPredicate secondDown = node -> node != 1;
    assertThat(spread(Balancer.roundRobin(3), 3, 3000, secondDown)[1]).isZero();
    assertThat(spread(Balancer.weightedRoundRobin(new int[] {2, 1, 1}), 3, 4000, secondDown)[1])
        .isZero();
    assertThat(spread(Balancer.random(3), 3, 3000, secondDown)[1]).isZero();
  }

  @Test
  void consistentHashingSendsAKeyToOneNodeAndMovesAboutOneNthWhenANodeGoes() {
    List<String> names = List.of("db1:5432/app", "db2:5432/app", "db3:5432/app");
    Balancer ring = Balancer.consistentHash(names, 160);
    Map<Long, Integer> owner = new HashMap<>();
    int[] load = new int[3];
    for (long key = 0; key < 30_000; key++) {
      int node = ring.pick(key, ALL_HEALTHY);
      assertThat(ring.pick(key, ALL_HEALTHY)).isEqualTo(node); // stable
      owner.put(key, node);
      load[node]++;
    }
    for (int count : load) {
      assertThat(count).isBetween(8_000, 12_000); // virtual nodes keep the ring balanced
    }
    // Node 3 goes: only its keys move, and they spread over the other two.
    int moved = 0;
    for (long key = 0; key < 30_000; key++) {
      int node = ring.pick(key, n -> n != 2);
      if (owner.get(key) != 2) {
        assertThat(node).isEqualTo(owner.get(key));
      } else {
        assertThat(node).isNotEqualTo(2);
        moved++;
      }
    }
    assertThat(moved / 30_000.0).isBetween(0.27, 0.40);
  }

  @Test
  void zoneBalancingStaysInTheLocalZoneAndSpillsOverOnlyWhenItsNodesCannotServe() {
    // nodes 0 and 2 in eu-1 (the injector's), 1 and 3 in us-1
    List<String> zones = List.of("eu-1", "us-1", "eu-1", "us-1");
    Balancer zone = Balancer.zone(zones, "eu-1");
    assertThat(spread(zone, 4, 4000, ALL_HEALTHY)).containsExactly(2000, 0, 2000, 0);
    // one local node down: the other local one takes all, nothing leaves the zone
    assertThat(spread(zone, 4, 4000, node -> node != 0)).containsExactly(0, 0, 4000, 0);
    // every local node down (or stalled): the distant zone, in turn
    assertThat(spread(zone, 4, 4000, node -> node % 2 == 1)).containsExactly(0, 2000, 0, 2000);
    // a local zone no node is in: every request to the others
    assertThat(spread(Balancer.zone(zones, "ap-1"), 4, 4000, ALL_HEALTHY))
        .containsExactly(1000, 1000, 1000, 1000);
    // nothing can serve: the first local node, where the request fails with its reason
    assertThat(zone.pick(0, node -> false)).isZero();
  }

  private static int pick(Balancer balancer) {
    return balancer.pick(0, ALL_HEALTHY);
  }
}
