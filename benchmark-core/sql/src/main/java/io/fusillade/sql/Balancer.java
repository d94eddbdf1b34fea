package io.fusillade.sql;

import io.fusillade.gen.Seeds;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;

/**
 * Chooses the node of a cluster that runs a request. Implementations are thread-safe and do not
 * lock. When the chosen node is down (see {@link SqlCluster}'s failover), the balancer moves to the
 * next healthy one in its own order; when every node is down it returns its first choice.
 */
public interface Balancer {

  /**
   * @param key the request's key (used by consistent hashing; ignored by the others)
   * @param healthy which node indexes may be chosen now
   * @return a node index
   */
  int pick(long key, IntPredicate healthy);

  /** Spreads requests over the nodes in turn: node 0, 1, 2, 0, 1, 2... */
  static Balancer roundRobin(int nodes) {
    AtomicLong next = new AtomicLong();
    return (key, healthy) -> firstHealthy((int) (next.getAndIncrement() % nodes), nodes, healthy);
  }

  /** Picks a node uniformly at random for each request. */
  static Balancer random(int nodes) {
    return (key, healthy) ->
        firstHealthy(ThreadLocalRandom.current().nextInt(nodes), nodes, healthy);
  }

  /**
   * Round robin in proportion to the weights, interleaved smoothly (weights 2:1:1 give 0, 1, 0, 2,
   * ... not 0, 0, 1, 2), from a schedule computed once.
   */
  static Balancer weightedRoundRobin(int[] weights) {
    int[] schedule = smoothSchedule(weights);
    AtomicLong next = new AtomicLong();
    return (key, healthy) -> {
      long position = next.getAndIncrement();
      int choice = schedule[(int) (position % schedule.length)];
      if (healthy.test(choice)) {
        return choice;
      }
      for (int step = 1; step < schedule.length; step++) {
        int other = schedule[(int) ((position + step) % schedule.length)];
        if (healthy.test(other)) {
          return other;
        }
      }
      return choice;
    };
  }

  /**
   * Consistent hashing on the request's key: a key goes to the same node while the node set is
   * unchanged, and when a node goes, only its keys move (to the next node on the ring). Each node
   * holds {@code virtualNodes} points on a 64-bit ring, so removing one of N nodes moves about 1/N
   * of the keys.
   */
  static Balancer consistentHash(List<String> nodeNames, int virtualNodes) {
    return new ConsistentHashRing(nodeNames, virtualNodes);
  }

  /**
   * Zone-aware balancing: round robin over the nodes of the injector's own zone, {@code local}; the
   * nodes of the other zones only when none of the local ones may be chosen (each down, or stalled
   * while another node is not), in round robin too. With a local zone that no node is in, every
   * request goes to the others.
   *
   * @param zones each node's zone, by index (null or empty for a node without one)
   * @param local the injector's zone
   */
  static Balancer zone(List<String> zones, String local) {
    int[] near =
        java.util.stream.IntStream.range(0, zones.size())
            .filter(i -> local.equals(zones.get(i)))
            .toArray();
    int[] far =
        java.util.stream.IntStream.range(0, zones.size())
            .filter(i -> !local.equals(zones.get(i)))
            .toArray();
    AtomicLong nextNear = new AtomicLong();
    AtomicLong nextFar = new AtomicLong();
    return (key, healthy) -> {
      int node = firstHealthy(near, nextNear, healthy);
      if (node < 0) {
        node = firstHealthy(far, nextFar, healthy);
      }
      if (node >= 0) {
        return node;
      }
      return near.length > 0 ? near[0] : far[0];
    };
  }

  /** The next of {@code nodes} in turn that is healthy, or -1 when none is. */
  private static int firstHealthy(int[] nodes, AtomicLong next, IntPredicate healthy) {
    if (nodes.length == 0) {
      return -1;
    }
    int start = (int) Math.floorMod(next.getAndIncrement(), (long) nodes.length);
    for (int i = 0; i < nodes.length; i++) {
      int candidate = nodes[(start + i) % nodes.length];
      if (healthy.test(candidate)) {
        return candidate;
      }
    }
    return -1;
  }

  /** The start node if healthy, else the next healthy one in index order, else the start node. */
  private static int firstHealthy(int start, int nodes, IntPredicate healthy) {
    for (int i = 0; i < nodes; i++) {
      int candidate = (start + i) % nodes;
      if (healthy.test(candidate)) {
        return candidate;
      }
    }
    return start;
  }

  /** Smooth weighted round robin (as nginx does it), unrolled over one period. */
  static int[] smoothSchedule(int[] weights) {
    int total = Arrays.stream(weights).sum();
    if (total <= 0 || Arrays.stream(weights).anyMatch(w -> w < 0)) {
      throw new IllegalArgumentException(
          "weights must be >= 0 with a positive sum: " + Arrays.toString(weights));
    }
    int[] current = new int[weights.length];
    int[] schedule = new int[total];
    for (int slot = 0; slot < total; slot++) {
      int best = -1;
      for (int i = 0; i < weights.length; i++) {
        current[i] += weights[i];
        if (best < 0 || current[i] > current[best]) {
          best = i;
        }
      }
      current[best] -= total;
      schedule[slot] = best;
    }
    return schedule;
  }

  /** The ring behind {@link #consistentHash}. */
  final class ConsistentHashRing implements Balancer {
    private final long[] points;
    private final int[] owners;

    ConsistentHashRing(List<String> nodeNames, int virtualNodes) {
      int size = nodeNames.size() * virtualNodes;
      long[][] pairs = new long[size][];
      int i = 0;
      for (int node = 0; node < nodeNames.size(); node++) {
        for (int v = 0; v < virtualNodes; v++) {
          pairs[i++] = new long[] {Seeds.hash(nodeNames.get(node) + "#" + v), node};
        }
      }
      Arrays.sort(pairs, (a, b) -> Long.compare(a[0], b[0]));
      points = new long[size];
      owners = new int[size];
      for (int p = 0; p < size; p++) {
        points[p] = pairs[p][0];
        owners[p] = (int) pairs[p][1];
      }
    }

    @Override
    public int pick(long key, IntPredicate healthy) {
      long hash = Seeds.mix(key);
      int position = Arrays.binarySearch(points, hash);
      if (position < 0) {
        position = -position - 1;
      }
      for (int step = 0; step < points.length; step++) {
        int owner = owners[(position + step) % points.length];
        if (healthy.test(owner)) {
          return owner;
        }
      }
      return owners[position % points.length];
    }
  }
}
