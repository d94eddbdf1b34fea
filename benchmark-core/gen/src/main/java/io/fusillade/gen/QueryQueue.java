package io.fusillade.gen;

import java.util.Arrays;

/**
 * The order in which a run sends its queries: each query index repeated by its count, shuffled with
 * the run seed (Fisher–Yates), then dealt out to the virtual users. The same counts and seed give
 * the same queue in every run.
 */
public final class QueryQueue {

  private final int[] order;

  private QueryQueue(int[] order) {
    this.order = order;
  }

  /**
   * @param counts how many times to send each query, by query index
   * @param runSeed the run's seed
   * @return the shuffled queue
   */
  public static QueryQueue shuffled(int[] counts, long runSeed) {
    long total = 0;
    for (int count : counts) {
      if (count < 0) {
        throw new IllegalArgumentException("query counts must be >= 0: " + Arrays.toString(counts));
      }
      total += count;
    }
    if (total > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("the queue holds more than 2^31 queries");
    }
    int[] order = new int[(int) total];
    int at = 0;
    for (int query = 0; query < counts.length; query++) {
      Arrays.fill(order, at, at + counts[query], query);
      at += counts[query];
    }
    new Rng(Seeds.derive(runSeed, "query-queue")).shuffle(order);
    return new QueryQueue(order);
  }

  /**
   * @return the number of queries in the queue
   */
  public int size() {
    return order.length;
  }

  /**
   * @param position a position in [0, size)
   * @return the index of the query at that position
   */
  public int get(int position) {
    return order[position];
  }

  /**
   * @return a copy of the whole queue
   */
  public int[] toArray() {
    return order.clone();
  }

  /**
   * One user's share: positions user, user + users, user + 2·users, ... of the queue. Shares differ
   * in size by at most one, and together hold the whole queue.
   *
   * @param user the user's index, in [0, users)
   * @param users the number of users
   * @return the query indexes this user sends, in order
   */
  public int[] forUser(int user, int users) {
    if (users < 1 || user < 0 || user >= users) {
      throw new IllegalArgumentException("user " + user + " is not in [0, " + users + ")");
    }
    int length = order.length / users + (user < order.length % users ? 1 : 0);
    int[] share = new int[length];
    for (int i = 0; i < length; i++) {
      share[i] = order[user + i * users];
    }
    return share;
  }
}
