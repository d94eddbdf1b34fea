package io.fusillade.gatling.sql;

import io.fusillade.sql.SqlTimeout;

/**
 * A request's own timeout and tries, over the protocol's: part of each request builder's value.
 *
 * @param timeout the request's timeout, or null for the protocol's {@code requestTimeout}
 * @param maxTries the most tries of the request, or 0 for the protocol's {@code maxTries}
 */
record RequestLimits(SqlTimeout timeout, int maxTries) {
  /** The protocol's. */
  static final RequestLimits NONE = new RequestLimits(null, 0);

  RequestLimits {
    if (maxTries < 0) {
      throw new IllegalArgumentException("maxTries must be at least 1: " + maxTries);
    }
  }

  RequestLimits withTimeout(java.time.Duration value) {
    return new RequestLimits(SqlTimeout.of(value), maxTries);
  }

  RequestLimits withMaxTries(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("maxTries must be at least 1: " + value);
    }
    return new RequestLimits(timeout, value);
  }
}
