package io.fusillade.sql;

/**
 * How often a request is tried, as pgbench's {@code --max-tries} does it: a request that fails with
 * a serialization failure (SQLState {@value #SERIALIZATION_FAILURE}) or a deadlock ({@value
 * #DEADLOCK}) is sent again, up to {@code max} tries in all, and never once {@code untilNanos} has
 * passed (pgbench's {@code --latency-limit} bounds the time of all tries the same way). Any other
 * failure ends the request at once. Each try may go to another node: the balancer chooses again.
 *
 * <pre>{@code
 * new SqlTries(3, 0)   // up to 3 tries, no time bound
 * }</pre>
 *
 * @param max the most tries, at least 1 (1: no retry)
 * @param untilNanos no try starts after this {@link System#nanoTime()}; 0 for no bound
 */
public record SqlTries(int max, long untilNanos) {
  /** SQLState of a serialization failure (PostgreSQL: "could not serialize access ..."). */
  public static final String SERIALIZATION_FAILURE = "40001";

  /** SQLState of a transaction the server aborted to break a deadlock. */
  public static final String DEADLOCK = "40P01";

  /** One try: a failure is final. */
  public static final SqlTries ONCE = new SqlTries(1, 0);

  /** Checks the count. */
  public SqlTries {
    if (max < 1) {
      throw new IllegalArgumentException("max tries must be at least 1: " + max);
    }
  }

  /**
   * Whether a failure with {@code sqlState} may be tried again: a serialization failure or a
   * deadlock.
   */
  public static boolean retryable(String sqlState) {
    return SERIALIZATION_FAILURE.equals(sqlState) || DEADLOCK.equals(sqlState);
  }

  /**
   * Whether a request that has been tried {@code tries} times and failed with {@code sqlState} at
   * {@code nowNanos} is tried again.
   */
  boolean again(int tries, String sqlState, long nowNanos) {
    return tries < max && retryable(sqlState) && (untilNanos == 0 || nowNanos - untilNanos < 0);
  }
}
