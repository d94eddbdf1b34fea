package io.fusillade.gatling.sql;

import java.time.Duration;

/**
 * How the protocol's requests are tried and judged late, unless a request says: part of {@link
 * SqlSettings}.
 *
 * @param maxTries the most tries of a request that fails with a serialization failure or a deadlock
 *     (1: no retry), as pgbench's {@code --max-tries}
 * @param latencyLimit pgbench's {@code --latency-limit}: a request slower than this is counted
 *     late, and no retry starts after it; null for none
 */
record SqlTryDefaults(int maxTries, Duration latencyLimit) {
  /** One try, no latency limit. */
  static final SqlTryDefaults DEFAULT = new SqlTryDefaults(1, null);

  SqlTryDefaults {
    if (maxTries < 1) {
      throw new IllegalArgumentException("maxTries must be at least 1: " + maxTries);
    }
    if (latencyLimit != null && (latencyLimit.isZero() || latencyLimit.isNegative())) {
      throw new IllegalArgumentException("a latency limit must be > 0: " + latencyLimit);
    }
  }

  SqlTryDefaults withMaxTries(int value) {
    return new SqlTryDefaults(value, latencyLimit);
  }

  SqlTryDefaults withLatencyLimit(Duration value) {
    return new SqlTryDefaults(maxTries, value);
  }
}
