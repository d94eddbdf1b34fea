package io.fusillade.workload;

import java.time.Duration;

/**
 * A query's own limits, over the run's ({@code --request-timeout}, {@code --max-tries}):
 *
 * <pre>{@code
 * queries:
 *   - name: q1
 *     sql: select ...
 *     timeout: 30m      # or 90s, 500ms, or seconds: 3.0
 *     max_tries: 3      # serialization failures and deadlocks are tried again
 * }</pre>
 *
 * @param timeout the query's timeout, or null for the run's
 * @param maxTries its most tries, or 0 for the run's
 */
public record QueryLimits(Duration timeout, int maxTries) {
  /** The run's. */
  public static final QueryLimits NONE = new QueryLimits(null, 0);
}
